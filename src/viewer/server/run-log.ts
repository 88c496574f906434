/**
 * A run's events as the viewer handler holds them: a bounded replay buffer
 * that each SSE connection reads from its own position, so a slow or
 * reconnecting page never holds the run back, and a page that reconnects
 * with `Last-Event-ID` gets every event after it — no gap, no duplicate —
 * while the buffer still holds them.
 *
 * Past `maxEvents` the buffer makes room in one pass: first it drops the
 * `token` and `reasoning` deltas of its older half (streamed text loses its
 * beginning; plan, tools and answers stay), and when that frees less than a
 * quarter, the oldest events go until three quarters remain. A page that
 * connects later sees what is held, and counts the missing `seq`s as a gap.
 * @module
 */
import { isTerminalEvent, type TandemEvent } from '../../core/events.js';

/** Holds one run's events, newest last. */
export class RunLog {
  private events: TandemEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private closed = false;
  /** Events dropped to respect the bound. */
  dropped = 0;

  constructor(private readonly maxEvents: number) {}

  /** Events held. */
  get size(): number {
    return this.events.length;
  }

  /** Readers waiting for the next event (streams of clients that are caught up). */
  get readers(): number {
    return this.waiters.size;
  }

  /** True after the terminal event, or once closed. */
  get ended(): boolean {
    return this.closed;
  }

  /** Adds an event; one at or below the last `seq` (a repeat) is ignored. Ends the log after a terminal event. */
  push(event: TandemEvent): void {
    if (this.closed) return;
    const last = this.events[this.events.length - 1];
    if (last && event.seq <= last.seq) return;
    this.events.push(event);
    if (this.events.length > this.maxEvents) this.compact();
    if (isTerminalEvent(event)) this.closed = true;
    this.wake();
  }

  /** Ends the log: readers get what is held and finish. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Every held event, in order. */
  all(): readonly TandemEvent[] {
    return this.events;
  }

  /**
   * The events after `seq`, in order, as they arrive; ends after the
   * terminal event or when the log closes. `return()` (what `toSSE` calls
   * when the client goes away) releases a waiting reader at once.
   */
  after(seq: number): AsyncIterableIterator<TandemEvent> {
    let last = seq;
    let done = false;
    let wake: (() => void) | undefined;
    const next = async (): Promise<IteratorResult<TandemEvent>> => {
      while (!done) {
        const event = this.events[this.indexAfter(last)];
        if (event) {
          last = event.seq;
          if (isTerminalEvent(event)) done = true;
          return { value: event, done: false };
        }
        if (this.closed) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
          this.waiters.add(resolve);
        });
        wake = undefined;
      }
      done = true;
      return { value: undefined, done: true };
    };
    return {
      next,
      return: async () => {
        done = true;
        if (wake) {
          this.waiters.delete(wake);
          wake();
        }
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Index of the first event with a `seq` above `seq` (binary search: `seq`s increase, with holes after a compaction). */
  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private compact(): void {
    const before = this.events.length;
    const half = before >> 1;
    const older = this.events.slice(0, half).filter((e) => e.type !== 'token' && e.type !== 'reasoning');
    let kept = [...older, ...this.events.slice(half)];
    if (before - kept.length < before >> 2)
      kept = kept.slice(kept.length - Math.floor((this.maxEvents * 3) / 4));
    this.dropped += before - kept.length;
    this.events = kept;
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const resolve of waiters) resolve();
  }
}
