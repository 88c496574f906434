/**
 * One timer for every deadline of a run: the wall clock and the stall watch
 * of each model call. A zero-latency turn made and cleared a platform timer
 * and an abort listener per model call — a tenth of its time (bench/) — where
 * the run's watchdog, already armed, only notes the new deadline.
 * @module
 */
import type { CancelTimer, Clock } from './seams.js';

/** Setting a timer beyond this overflows the platform's timer. */
const MAX_TIMER_MS = 2_147_483_647;

/** Something with a deadline, watched by a {@link Watchdog}. */
export interface Watched {
  /**
   * Called when the watchdog's timer fires at or after the time it last
   * asked for. Returns when to look again (its deadline moved, or it was
   * paused), or `undefined` when it needs no more looks (it expired).
   */
  check(now: number): number | undefined;
  /** The watchdog's signal aborted while it was watched. */
  abort?(): void;
}

/**
 * Watches deadlines on one timer of `clock`, armed for the earliest it knows
 * of. A deadline that moves later (a chunk arrived, a call ended) costs
 * nothing until the timer fires: each watched thing then says when to look
 * again. Its signal's abort reaches everything watched. The timer is armed
 * only while something is watched; dispose the watchdog when the run ends.
 */
export class Watchdog {
  private readonly watched = new Set<Watched>();
  private cancel: CancelTimer | undefined;
  /** When the armed timer fires (`Infinity`: none is armed). */
  private due = Infinity;
  /** The listener on `signal` while something is watched (made on first use). */
  private listener: (() => void) | undefined;
  private listening = false;

  constructor(
    readonly clock: Clock,
    /** The run's signal: its abort reaches what is watched. */
    readonly signal?: AbortSignal,
    /**
     * Whether the watchdog listens to `signal` itself. The owner of the signal
     * may call {@link abort} instead when it aborts it: a `Run` does, which
     * spares every run waiting on its model an event listener (bench).
     */
    private readonly listens = true,
  ) {}

  /** Watches `watched`, first looking at it at `due` (clock time). */
  watch(watched: Watched, due: number): void {
    this.watched.add(watched);
    if (this.listens && !this.listening && this.signal && !this.signal.aborted) {
      this.listening = true;
      // A listener of its own rather than the shared one of `abort-listeners.ts`: one per run, and a waiting
      // run then holds no listener set for its signal (bench: memory per waiting run).
      this.listener ??= () => this.abort();
      this.signal.addEventListener('abort', this.listener, { once: true });
    }
    if (due < this.due) this.arm(due);
  }

  /** The signal aborted: the abort reaches everything watched. */
  abort(): void {
    this.listening = false;
    for (const watched of [...this.watched]) watched.abort?.();
  }

  /**
   * Stops watching `watched`. The timer stays armed while anything else is
   * watched: a run's wall clock is, so its model calls come and go without
   * touching it.
   */
  unwatch(watched: Watched): void {
    this.watched.delete(watched);
    if (this.watched.size === 0) this.disarm();
  }

  /** Cancels the timer and forgets everything watched. */
  dispose(): void {
    this.disarm();
    this.watched.clear();
    if (this.listening && this.listener) this.signal?.removeEventListener('abort', this.listener);
    this.listening = false;
  }

  private disarm(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.due = Infinity;
  }

  private arm(due: number): void {
    this.cancel?.();
    this.due = due;
    const left = Math.min(MAX_TIMER_MS, Math.max(0, due - this.clock.now()));
    this.cancel = this.clock.setTimer(left, this.fire);
  }

  private readonly fire = (): void => {
    this.cancel = undefined;
    this.due = Infinity;
    const now = this.clock.now();
    let next = Infinity;
    for (const watched of [...this.watched]) {
      const at = watched.check(now);
      if (at === undefined) this.watched.delete(watched);
      else if (at < next) next = at;
    }
    // A check may have watched something new, arming the timer already.
    if (next < this.due) this.arm(next);
  };
}
