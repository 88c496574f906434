/**
 * The executor's wall-clock budget. Time spent waiting for a human does not
 * count — the call that waits says so through `waitingForHuman`, never an
 * event: an approval may legitimately take longer than the whole budget
 * (decision and input questions wait 300 s by default; the budget is 270 s).
 * Its timer aborts the calls in flight; the loop then returns the stop.
 * @module
 */
import type { CancelTimer, Clock } from '../../core/seams.js';

/** Setting a timer beyond this overflows the platform's timer. */
const MAX_TIMER_MS = 2_147_483_647;

/** A deadline that stops while humans are asked, and aborts when it passes. */
export class WallClockBudget {
  private deadline: number;
  private cancel: CancelTimer | undefined;
  private waiting = 0;
  private pausedAt = 0;
  private expired = false;

  constructor(
    private readonly clock: Clock,
    timeoutMs: number,
    private readonly onExpire: () => void,
  ) {
    this.deadline = clock.now() + timeoutMs;
    this.arm();
  }

  /** True once the budget ran out. */
  get timedOut(): boolean {
    return this.expired || (this.waiting === 0 && this.clock.now() >= this.deadline);
  }

  /**
   * Told by a tool call that starts waiting for a human (the approval gate,
   * `ask_user`); returns the function that ends the wait. The budget stands
   * still while any such wait is open.
   */
  readonly waitingForHuman = (): (() => void) => {
    this.pause();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.resume();
    };
  };

  private pause(): void {
    if (this.waiting++ > 0) return;
    this.pausedAt = this.clock.now();
    this.cancel?.();
    this.cancel = undefined;
  }

  private resume(): void {
    if (this.waiting === 0 || --this.waiting > 0) return;
    this.deadline += this.clock.now() - this.pausedAt;
    this.arm();
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  private arm(): void {
    const left = this.deadline - this.clock.now();
    if (left > MAX_TIMER_MS) return;
    this.cancel = this.clock.setTimer(Math.max(0, left), () => {
      this.cancel = undefined;
      if (this.waiting > 0) return;
      this.expired = true;
      this.onExpire();
    });
  }
}
