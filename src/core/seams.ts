/**
 * Time, randomness and ids. Every module that needs them takes them from a
 * {@link Runtime}, so tests drive a fake clock and a seeded random source and
 * never sleep.
 * @module
 */

import { AbortError } from './errors.js';
import type { Tracing } from './tracing.js';

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
  /** Spans around model calls and tool executions (e.g. `otelTracing()` from `tandem-agents/otel`). Default: none. */
  tracing?: Tracing;
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

/**
 * Ids that are unique across processes and machines: each is a version 4 UUID
 * after `prefix`. Run ids key shared Redis and file checkpoint stores, so 32
 * random bits would collide between busy workers; 122 do not. By default the
 * platform's `crypto.randomUUID()` (Node ≥ 18, Bun, Deno, browsers, edge)
 * makes them; given a {@link Random}, the UUIDs are drawn from it instead, so a
 * seeded source gives the same ids on every test run.
 */
export function createIdGenerator(random?: Random): IdGenerator {
  const uuid = random ? () => uuidFrom(random) : platformUUID();
  // A join, not a template: Node builds a UUID from pieces, and V8 keeps a concatenation as a tree of them
  // (about 500 bytes, held by every event of the run); a join makes one flat string of about 60.
  return { next: (prefix) => [prefix, uuid()].join('_') };
}

function platformUUID(): () => string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return crypto?.randomUUID?.bind(crypto) ?? (() => uuidFrom(systemRandom));
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A version 4 UUID (RFC 9562) from 16 bytes of `random`. */
function uuidFrom(random: Random): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    let byte = Math.floor(random.next() * 256) & 0xff;
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    if (i === 8) byte = (byte & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += HEX[byte];
  }
  return out;
}

/** The default runtime: real clock, `Math.random`, UUID ids. */
export function defaultRuntime(): Runtime {
  return { clock: systemClock, random: systemRandom, ids: createIdGenerator() };
}

/** Fills the missing seams of a partial runtime with the defaults. */
export function resolveRuntime(partial?: Partial<Runtime>): Runtime {
  if (partial?.clock && partial.random && partial.ids) return partial as Runtime;
  return {
    clock: partial?.clock ?? systemClock,
    random: partial?.random ?? systemRandom,
    ids: partial?.ids ?? createIdGenerator(partial?.random),
    tracing: partial?.tracing,
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
