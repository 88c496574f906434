/**
 * The abort signals of step attempts. An attempt needs a signal of its own —
 * its timeout aborts its work, not the run's — but an `AbortSignal` costs
 * microseconds to make in Node, so a signal whose attempt ended without
 * aborting it serves the run's next attempt: a run makes as many as it runs
 * attempts at once, not one per attempt. Only the attempt holding a signal
 * aborts it: its timeout, or the executor it is lent to (which works on it
 * directly, its own time limit included).
 * @module
 */
import { linkAbort } from '../run.js';

/** A signal linked to the run's, lent to one attempt at a time. */
export class AttemptSignal {
  private readonly controller = new AbortController();
  private readonly unlink: () => void;

  constructor(
    run: AbortSignal,
    private readonly idle: AttemptSignal[],
  ) {
    this.unlink = linkAbort(run, this.controller);
  }

  /** The signal handed to the attempt's executor. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Aborts the attempt's work (its timeout, or the executor the signal is
   * lent to); the signal is not lent again. A function, so it can be handed on.
   */
  readonly abort = (reason?: unknown): void => this.controller.abort(reason);

  /** Ends the attempt: a signal that did not abort serves the next one. */
  release(): void {
    if (this.controller.signal.aborted) this.unlink();
    else this.idle.push(this);
  }
}

const idleByRun = new WeakMap<AbortSignal, AttemptSignal[]>();

/** A signal for one attempt under the run's `signal`: aborted when the run's is, or by the attempt. */
export function attemptSignal(signal: AbortSignal): AttemptSignal {
  let idle = idleByRun.get(signal);
  if (!idle) {
    idle = [];
    idleByRun.set(signal, idle);
  }
  return idle.pop() ?? new AttemptSignal(signal, idle);
}
