/**
 * The executor's wall-clock budget. Time spent waiting for a human (between
 * an `interrupt` and its `interrupt_response`) does not count: an approval
 * may legitimately take longer than the whole budget (decision and input
 * questions wait 300 s by default; the budget is 270 s).
 * @module
 */
import type { Emitter, EventPayloads, EventTags, EventType } from '../../core/events.js';
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

  /** An emitter that forwards to `inner` and pauses the budget while a question to a human is open. */
  watch(inner: Emitter): Emitter {
    return new BudgetEmitter(inner, this);
  }

  /** A human was asked. */
  pause(): void {
    if (this.waiting++ > 0) return;
    this.pausedAt = this.clock.now();
    this.cancel?.();
    this.cancel = undefined;
  }

  /** A human answered (or the question timed out). */
  resume(): void {
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

class BudgetEmitter implements Emitter {
  constructor(
    private readonly inner: Emitter,
    private readonly budget: WallClockBudget,
  ) {}
  get runId(): string {
    return this.inner.runId;
  }
  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void {
    if (type === 'interrupt') this.budget.pause();
    else if (type === 'interrupt_response') this.budget.resume();
    this.inner.emit(type, payload);
  }
  scope(tags: EventTags): Emitter {
    return new BudgetEmitter(this.inner.scope(tags), this.budget);
  }
  backpressure(): Promise<void> | undefined {
    return this.inner.backpressure();
  }
  get span(): Emitter['span'] {
    return this.inner.span;
  }
}
