/**
 * Terminal styling for the examples' printers, only where a terminal shows
 * it: `FORCE_COLOR` (any value but `0`/`false`) forces colours on and
 * `FORCE_COLOR=0` off, as in Node and most CLIs; otherwise a non-empty
 * `NO_COLOR` (no-color.org), output that is not a terminal (piped to a file
 * or another program) and `TERM=dumb` turn them off.
 */

/** The part of a write stream that says whether it is a terminal. */
export interface MaybeTty {
  isTTY?: boolean;
}

/** Whether to print ANSI styles to `stream` under `env`. */
export function colorsEnabled(
  stream: MaybeTty = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Styles for one stream: `dim` and `bold`, or the text unchanged when colours are off. */
export function styles(enabled: boolean = colorsEnabled()): {
  dim: (s: string) => string;
  bold: (s: string) => string;
} {
  if (!enabled) return { dim: (s) => s, bold: (s) => s };
  return { dim: (s) => `\x1b[2m${s}\x1b[0m`, bold: (s) => `\x1b[1m${s}\x1b[0m` };
}
