/**
 * A clock tests drive by hand: timers fire only when the test advances time.
 * @module
 */
import type { CancelTimer, Clock, IdGenerator, Random, Runtime } from '../core/seams.js';
import { zodImporting } from '../model/lazy-zod.js';

interface Timer {
  at: number;
  /** The duration asked for, for {@link FakeClock.fireNext} filters. */
  ms: number;
  seq: number;
  fn: () => void;
}

// Captured at load so a test that fakes the global timers cannot stall `flush`.
const macrotask: (fn: () => void) => unknown = globalThis.setTimeout.bind(globalThis);

/** Lets pending promise callbacks and one macrotask turn run (no time passes on any clock). */
export function flush(): Promise<void> {
  return new Promise((resolve) => macrotask(resolve));
}

/**
 * A {@link Clock} whose time moves only through {@link FakeClock.advance}.
 *
 * ```ts
 * const clock = new FakeClock();
 * const done = sleep(clock, 1000);
 * await clock.advance(1000); // `done` resolves now, without waiting
 * ```
 */
export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): CancelTimer {
    const timer: Timer = { at: this.time + Math.max(0, ms), ms, seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      const i = this.timers.indexOf(timer);
      if (i >= 0) this.timers.splice(i, 1);
    };
  }

  /** Number of timers waiting to fire. */
  get pending(): number {
    return this.timers.length;
  }

  /** Milliseconds until the next timer fires, or `undefined` when none is set. */
  nextTimerIn(): number | undefined {
    const next = this.earliest();
    return next ? next.at - this.time : undefined;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order. Between timers it
   * lets pending async work run, so chains of timers (a retry after a wait
   * after a call) fire within one `advance`.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await flush();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.at);
      next.fn();
      await flush();
    }
    this.time = target;
    await flush();
  }

  /** Fires every timer, including ones set while firing, up to `maxTimers`. Returns how many fired. */
  async runAll(maxTimers = 10_000): Promise<number> {
    let fired = 0;
    await flush();
    for (let next = this.earliest(); next && fired < maxTimers; next = this.earliest()) {
      this.timers.splice(this.timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.at);
      next.fn();
      fired++;
      await flush();
    }
    return fired;
  }

  /**
   * Fires timers, earliest first, until `promise` settles, and returns it.
   * Waits for tandem's import of zod when one is under way (real I/O, no
   * timer). Throws when the promise is still pending and no timer is left (a
   * deadlock) or after `maxTimers`.
   */
  async run<T>(promise: Promise<T>, maxTimers = 10_000): Promise<T> {
    let done = false;
    const mark = () => {
      done = true;
    };
    promise.then(mark, mark);
    for (let i = 0; i < maxTimers; i++) {
      await flush();
      if (done) return promise;
      if (this.fireNext()) continue;
      const importing = zodImporting();
      if (!importing) throw new Error('FakeClock.run: the promise is pending and no timer is left');
      await importing.catch(() => undefined);
    }
    throw new Error(`FakeClock.run: still pending after ${maxTimers} timers`);
  }

  /**
   * Fires the earliest timer whose requested duration passes `filter` (e.g.
   * only a 180 s stale-stream timer), moving time to it. False when there is
   * none.
   */
  fireNext(filter: (ms: number) => boolean = () => true): boolean {
    const next = this.earliest(filter);
    if (!next) return false;
    this.timers.splice(this.timers.indexOf(next), 1);
    this.time = Math.max(this.time, next.at);
    next.fn();
    return true;
  }

  private earliest(filter?: (ms: number) => boolean): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (filter && !filter(t.ms)) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** A deterministic {@link Random} (mulberry32). */
export function seededRandom(seed = 1): Random {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Ids `prefix_1`, `prefix_2`, … counted per prefix. */
export function sequentialIds(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}

/** A runtime for tests: a {@link FakeClock}, seeded random and sequential ids. */
export function testRuntime(options: { start?: number; seed?: number } = {}): Runtime & { clock: FakeClock } {
  return {
    clock: new FakeClock(options.start ?? 0),
    random: seededRandom(options.seed ?? 1),
    ids: sequentialIds(),
  };
}
