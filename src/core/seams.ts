/**
 * Time, randomness and ids. Every module that needs them takes them from a
 * {@link Runtime}, so tests drive a fake clock and a seeded random source and
 * never sleep.
 * @module
 */
import { AbortError } from './errors.js';

/** Cancels a timer created by {@link Clock.setTimer}. */
export type CancelTimer = () => void;

/** Wall-clock time and timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` after `ms` milliseconds unless cancelled. */
  setTimer(ms: number, fn: () => void): CancelTimer;
}

/** A source of uniformly distributed numbers in [0, 1). */
export interface Random {
  next(): number;
}

/** Makes ids. Each call returns a fresh id starting with `prefix`. */
export interface IdGenerator {
  next(prefix: string): string;
}

/** The seams one run uses. */
export interface Runtime {
  clock: Clock;
  random: Random;
  ids: IdGenerator;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
};

/** `Math.random`. */
export const systemRandom: Random = { next: () => Math.random() };

/** Ids from a random prefix and a counter: unique per process, cheap on the hot path. */
export function createIdGenerator(random: Random = systemRandom): IdGenerator {
  const session = Math.floor(random.next() * 0xffffffff)
    .toString(36)
    .padStart(7, '0');
  let counter = 0;
  return { next: (prefix) => `${prefix}_${session}${(counter++).toString(36)}` };
}

/** The default runtime: real clock, `Math.random`, process-unique ids. */
export function defaultRuntime(): Runtime {
  return { clock: systemClock, random: systemRandom, ids: createIdGenerator() };
}

/** Fills the missing seams of a partial runtime with the defaults. */
export function resolveRuntime(partial?: Partial<Runtime>): Runtime {
  if (partial?.clock && partial.random && partial.ids) return partial as Runtime;
  const random = partial?.random ?? systemRandom;
  return {
    clock: partial?.clock ?? systemClock,
    random,
    ids: partial?.ids ?? createIdGenerator(random),
  };
}

/**
 * Waits `ms` on `clock`; rejects with {@link AbortError} at once when `signal`
 * aborts, and cancels the timer so nothing is left behind.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(new AbortError(signal?.reason));
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
