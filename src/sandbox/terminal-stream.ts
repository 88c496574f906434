/**
 * A running command's output as live terminal events: `terminal_command`
 * first, then `terminal_output` / `terminal_error` as it prints, then
 * `terminal_complete`. Output is coalesced — one event per stream per
 * interval, or sooner when a chunk fills up — so a script printing a line a
 * millisecond does not flood the bus, and bounded by the exec's capture cap.
 * @module
 */
import type { Emitter } from '../core/events.js';
import type { ExecOutput, ExecResult } from '../core/sandbox.js';
import type { CancelTimer, Clock } from '../core/seams.js';

/** Default pause between two output events of one stream. */
export const TERMINAL_INTERVAL_MS = 100;
/** Pending text of one stream at which it is sent without waiting for the interval. */
const FLUSH_CHARS = 16_384;

/** The tool call a terminal belongs to (a `ToolContext` is one). */
export interface TerminalCall {
  /** Where the terminal events go. */
  emit: Emitter;
  /** Used as the terminal id, so events of one call group together. */
  toolCallId: string;
}

/** One command's terminal events. */
export class TerminalStream {
  private readonly pending = { stdout: '', stderr: '' };
  private timer: CancelTimer | undefined;

  private readonly emit: Emitter;
  private readonly id: string;

  /** @param call The tool call the command runs for: its emitter, and its id as the terminal id. */
  constructor(
    call: TerminalCall,
    private readonly clock: Clock,
    private readonly intervalMs = TERMINAL_INTERVAL_MS,
  ) {
    this.emit = call.emit;
    this.id = call.toolCallId;
  }

  /** Emits `terminal_command`. */
  start(command: string, language?: string): void {
    this.emit.emit(
      'terminal_command',
      language ? { id: this.id, command, language } : { id: this.id, command },
    );
  }

  /** Takes output as it arrives; pass it as the exec's `onOutput`. */
  readonly push = (chunk: ExecOutput): void => {
    this.pending[chunk.stream] += chunk.text;
    if (this.pending[chunk.stream].length >= FLUSH_CHARS) this.flush();
    else this.timer ??= this.clock.setTimer(this.intervalMs, () => this.flush());
  };

  /** Sends what is pending, then `terminal_complete`. */
  finish(result: Pick<ExecResult, 'exitCode' | 'timedOut' | 'durationMs' | 'truncated'>): void {
    this.flush();
    const { exitCode, timedOut, durationMs, truncated } = result;
    this.emit.emit('terminal_complete', { id: this.id, exitCode, timedOut, durationMs, truncated });
  }

  /** Sends what is pending and stops the timer (an exec that threw ends here). */
  flush(): void {
    this.timer?.();
    this.timer = undefined;
    const { stdout, stderr } = this.pending;
    this.pending.stdout = this.pending.stderr = '';
    if (stdout) this.emit.emit('terminal_output', { id: this.id, text: stdout });
    if (stderr) this.emit.emit('terminal_error', { id: this.id, text: stderr });
  }
}
