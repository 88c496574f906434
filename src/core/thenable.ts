/**
 * Telling a promise-like from a plain value, for values a user's callback
 * may return either way (a tool's result, a guardrail's verdict).
 * @module
 */

/** Whether `value` is a promise-like (anything with a `then` method). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
