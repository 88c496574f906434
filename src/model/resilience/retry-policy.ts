/**
 * How long to wait before retrying a failed model call, and which failures
 * are worth retrying at all. Exponential backoff with jitter, or the wait the
 * provider asked for (`Retry-After`), capped.
 * @module
 */
import { AbortError, ConfigError, errorMessage, isAbortError, ModelError } from '../../core/errors.js';
import type { Random } from '../../core/seams.js';

/** Backoff options of the resilient invoker. */
export interface RetryOptions {
  /** Retries per model after the first attempt (default 3: waits of about 2 s, 4 s, 8 s). */
  maxRetries?: number;
  /**
   * Retries of a bare 400 (its message `Error` or none: the provider named no
   * cause, and it may be transient), within `maxRetries` (default 1). Other
   * 400s are never retried.
   */
  maxBare400Retries?: number;
  /** Wait before the first retry; doubles on each further retry (default 2000 ms). */
  baseDelayMs?: number;
  /** Upper bound of the exponential part of a wait (default 60 000 ms). */
  maxDelayMs?: number;
  /** Longest provider-requested `Retry-After` wait honoured; longer requests wait this long (default 120 000 ms). */
  retryAfterCapMs?: number;
  /** Random extra wait, as a fraction of the exponential wait: `U(0, jitter·delay)` (default 0.5). */
  jitter?: number;
}

/** {@link RetryOptions} with every default filled in. */
export type RetryPolicy = Readonly<Required<RetryOptions>>;

/** The seeds' numbers: 3 retries (1 for a bare 400), `min(2^n, 60)` s, `Retry-After` up to 120 s, jitter up to half the wait. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 3,
  maxBare400Retries: 1,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  retryAfterCapMs: 120_000,
  jitter: 0.5,
});

/** The policy of `retry: false`: one attempt per model, no waits. */
export const NO_RETRY_POLICY: RetryPolicy = Object.freeze({
  ...DEFAULT_RETRY_POLICY,
  maxRetries: 0,
  maxBare400Retries: 0,
});

/**
 * Fills defaults and rejects nonsense (negative or non-finite numbers) with a
 * {@link ConfigError}; `false` turns retries off ({@link NO_RETRY_POLICY}).
 */
export function resolveRetryPolicy(options: RetryOptions | false = {}): RetryPolicy {
  if (options === false) return NO_RETRY_POLICY;
  const policy = { ...DEFAULT_RETRY_POLICY, ...definedOnly(options) };
  for (const key of ['maxRetries', 'maxBare400Retries'] as const) {
    if (!Number.isInteger(policy[key]) || policy[key] < 0) {
      throw new ConfigError(`retry.${key} must be a non-negative integer, got ${policy[key]}`);
    }
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'retryAfterCapMs', 'jitter'] as const) {
    const value = policy[key];
    if (!Number.isFinite(value) || value < 0) {
      throw new ConfigError(`retry.${key} must be a non-negative finite number, got ${value}`);
    }
  }
  return Object.freeze(policy);
}

/**
 * Wait before retry number `retry` (1-based): `min(base·2^(retry−1), max)`
 * plus `U(0, jitter·that)`. With the defaults: [2, 3) s, [4, 6) s, [8, 12) s.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: Random): number {
  const exponential = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  return Math.round(exponential + random.next() * policy.jitter * exponential);
}

/**
 * The policy and random source a backoff is drawn from. The resilient invoker
 * is one itself, so its retries pass it without building an object.
 */
export interface RetryBackoff {
  readonly retry: RetryPolicy;
  readonly random: Random;
}

/** Wait before retry number `retry`: the provider's `Retry-After` (capped) when it sent one, else {@link backoffDelay}. */
export function retryDelay(retry: number, error: ModelError, backoff: RetryBackoff): number {
  const asked = error.retryAfterMs;
  if (asked !== undefined && Number.isFinite(asked)) {
    return Math.round(Math.min(Math.max(asked, 0), backoff.retry.retryAfterCapMs));
  }
  return backoffDelay(retry, backoff.retry, backoff.random);
}

/**
 * Turns whatever a model call threw into a {@link ModelError}, or an
 * {@link AbortError} when the caller's signal aborted. An abort the caller
 * did not ask for (an adapter's own timeout) is a retryable `timeout`; a
 * non-tandem error (an adapter bug such as a `TypeError`) is a non-retryable
 * `invalid_response`, so the chain moves on instead of hammering it.
 */
export function toModelError(
  error: unknown,
  modelId: string,
  signal: AbortSignal | undefined,
): ModelError | AbortError {
  if (signal?.aborted) {
    if (error instanceof AbortError) return error;
    if (error instanceof ModelError && error.kind === 'aborted') return error;
    return new AbortError(signal.reason);
  }
  return asModelError(error, modelId);
}

/** {@link toModelError} for a call the caller did not abort. */
export function asModelError(error: unknown, modelId: string): ModelError {
  if (isAbortError(error)) {
    return new ModelError(
      'timeout',
      `${modelId}: call aborted without a caller abort: ${errorMessage(error)}`,
      {
        model: modelId,
        retryable: true,
        cause: error,
      },
    );
  }
  if (error instanceof ModelError) return error;
  return new ModelError('invalid_response', `${modelId}: ${errorMessage(error)}`, {
    model: modelId,
    retryable: false,
    cause: error,
  });
}

/** Copies the keys whose value is not `undefined`, so `{ x: undefined }` keeps the default of `x`. */
export function definedOnly<T extends object>(options: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(options) as Array<keyof T>) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  return out;
}
