/**
 * Values that are ready now or promised. The executor's turn (preparing,
 * gating and running tool calls, checkpointing) completes synchronously when
 * every part of it does, and pays for promises and microtask hops only where
 * something really waits: a turn of synchronous tools costs no promise.
 * @module
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` is a promise-like (anything with a `then` method). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** `fn(value)`: at once when `value` is ready, once it resolves when it is a promise (or any thenable). */
export function andThen<T, U>(value: T | PromiseLike<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  if (value instanceof Promise) return value.then(fn);
  return isThenable(value) ? Promise.resolve(value).then(fn) : fn(value);
}
