/**
 * The executor's wall-clock budget. Time spent waiting for a human does not
 * count — the call that waits says so through `waitingForHuman`, never an
 * event: an approval may legitimately take longer than the whole budget
 * (decision and input questions wait 300 s by default; the budget is 270 s).
 * The run's watchdog, on whose one timer the model calls' stall watches run
 * too, aborts the calls in flight when it passes; the loop then returns the stop.
 * @module
 */
import type { Watchdog, Watched } from '../../core/watchdog.js';

/**
 * Watches a caller's hard deadline (an orchestrator step attempt's) on the
 * run's watchdog: when `deadline.ms` pass, `abort` gets the caller's reason.
 * Unlike the budget it does not stop while a human is asked.
 */
export function watchCallerDeadline(
  watchdog: Watchdog,
  deadline: { ms: number; reason: () => unknown },
  abort: (reason: unknown) => void,
): void {
  const at = watchdog.clock.now() + deadline.ms;
  const watched: Watched = {
    check: (now) => {
      if (now < at) return at;
      abort(deadline.reason());
      return undefined;
    },
  };
  watchdog.watch(watched, at);
}

/** A deadline that stops while humans are asked, and aborts when it passes. */
export class WallClockBudget implements Watched {
  private deadline: number;
  private waiting = 0;
  private pausedAt = 0;
  private expired = false;

  /** Runs on `watchdog`, on its clock (the run's): `timeoutMs` from now, then `onExpire`. */
  constructor(
    private readonly watchdog: Watchdog,
    timeoutMs: number,
    private readonly onExpire: () => void,
  ) {
    this.deadline = watchdog.clock.now() + timeoutMs;
    watchdog.watch(this, this.deadline);
  }

  /** True once the budget ran out. */
  get timedOut(): boolean {
    return this.expired || (this.waiting === 0 && this.watchdog.clock.now() >= this.deadline);
  }

  /**
   * Told by a tool call that starts waiting for a human (the approval gate,
   * `ask_user`); returns the function that ends the wait. The budget stands
   * still while any such wait is open. A method, not a field: the tools get
   * it bound per batch, so a run waiting on its model holds no closure for it.
   */
  waitingForHuman(): () => void {
    this.pause();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.resume();
    };
  }

  /** The watchdog's look: the deadline while it lies ahead; past it, the budget expires. */
  check(now: number): number | undefined {
    if (this.waiting > 0) return undefined;
    if (now < this.deadline) return this.deadline;
    this.expired = true;
    this.onExpire();
    return undefined;
  }

  private pause(): void {
    if (this.waiting++ > 0) return;
    this.pausedAt = this.watchdog.clock.now();
    this.watchdog.unwatch(this);
  }

  private resume(): void {
    if (this.waiting === 0 || --this.waiting > 0) return;
    this.deadline += this.watchdog.clock.now() - this.pausedAt;
    this.watchdog.watch(this, this.deadline);
  }
}
