/**
 * Destructive shell and code patterns: recursive deletes of `/`, `~` or
 * system directories, fork bombs, filesystem creation, raw writes to disk
 * devices, recursive permission changes of `/`, and remote scripts piped
 * into a shell. Commands are split into words (quotes removed, `$IFS`
 * expanded) so `"rm" -r -f /` is caught while `rm -rf /tmp/x` is not.
 *
 * The scan is a single pass with no backtracking patterns: its time grows
 * linearly with the command (a 1 MB command takes milliseconds), so it cannot
 * stall the event loop the way a regex scan of `'curl '.repeat(50_000)` did.
 * Commands longer than `maxLength` are blocked unread.
 * @module
 */
import { type ShellVerdict, scanShell } from './shell-rules.js';

export type { ShellVerdict } from './shell-rules.js';

/** Default {@link ShellLimits.maxLength}: 1 MiB of text. */
export const DEFAULT_SHELL_MAX_LENGTH = 1_048_576;

/** Bounds of {@link checkShell}. */
export interface ShellLimits {
  /**
   * Longest command scanned, in UTF-16 code units; a longer one is blocked
   * (`shell.too_long`) without being read. Default {@link DEFAULT_SHELL_MAX_LENGTH}.
   */
  maxLength?: number;
}

/** Checks a shell command or a code snippet for destructive patterns. */
export function checkShell(command: string, limits: ShellLimits = {}): ShellVerdict {
  return scanShell(command, limits.maxLength ?? DEFAULT_SHELL_MAX_LENGTH, { steps: 0 });
}
