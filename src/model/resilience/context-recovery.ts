/**
 * Recovery from "the request is too big" errors (`context_length`, HTTP 413):
 * work out how big the window really is, ask the context layer to shrink the
 * request through the compression seam, and try again.
 * @module
 */
import { ConfigError, type ModelError } from '../../core/errors.js';
import type { CompressHook } from '../invoke.js';
import type { ModelRequest } from '../types.js';
import { definedOnly } from './retry-policy.js';

/** Context-recovery options of the resilient invoker. */
export interface ContextRecoveryOptions {
  /** Compressions per `invoke`, shared by context-length and 413 errors (default 3). */
  maxAttempts?: number;
  /** Windows to step down through when the error names no limit (default 128k, 64k, 32k, 16k, 8k). */
  tiers?: number[];
  /** Window assumed for a model whose `info.contextWindow` is unknown (default 128 000). */
  defaultWindow?: number;
}

/** {@link ContextRecoveryOptions} with every default filled in; `tiers` sorted largest first. */
export interface ContextRecoveryPolicy {
  readonly maxAttempts: number;
  readonly tiers: readonly number[];
  readonly defaultWindow: number;
}

/** The seed's probe tiers (hermes `CONTEXT_PROBE_TIERS`). */
export const DEFAULT_CONTEXT_TIERS: readonly number[] = Object.freeze([
  128_000, 64_000, 32_000, 16_000, 8_000,
]);

/** Fills defaults and rejects invalid numbers with a {@link ConfigError}. */
export function resolveContextRecoveryPolicy(options: ContextRecoveryOptions = {}): ContextRecoveryPolicy {
  const policy = {
    maxAttempts: 3,
    tiers: DEFAULT_CONTEXT_TIERS,
    defaultWindow: 128_000,
    ...definedOnly(options),
  };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 0) {
    throw new ConfigError(
      `contextRecovery.maxAttempts must be a non-negative integer, got ${policy.maxAttempts}`,
    );
  }
  for (const value of [...policy.tiers, policy.defaultWindow]) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new ConfigError(`contextRecovery windows must be positive numbers, got ${value}`);
    }
  }
  return Object.freeze({ ...policy, tiers: Object.freeze([...policy.tiers].sort((a, b) => b - a)) });
}

/** True for the errors context recovery handles. */
export function isContextError(error: ModelError): boolean {
  return error.kind === 'context_length' || error.kind === 'payload_too_large';
}

/**
 * The window to compress for after a context-length error: the limit the
 * error names when it names one, else the first tier below `window` (the
 * smallest tier when none is below: the compressor is asked again, harder).
 */
export function nextContextLimit(error: ModelError, window: number, policy: ContextRecoveryPolicy): number {
  if (error.contextLimit !== undefined && error.contextLimit > 0) return error.contextLimit;
  for (const tier of policy.tiers) if (tier < window) return tier;
  return Math.min(window, policy.tiers[policy.tiers.length - 1] ?? window);
}

/** What one invoke tracks across its compressions. */
export interface RecoveryState {
  request: ModelRequest;
  /** Compressions done so far in this invoke (all models). */
  compressions: number;
}

/**
 * Shrinks `state.request` for a context-size error and returns the window it
 * was shrunk for (`undefined` for a 413 that names none). Throws `error` when
 * recovery is impossible: attempts used up, no compression seam, or the seam
 * cannot shrink the request further (returned `undefined`).
 */
export async function recoverContext(
  state: RecoveryState,
  error: ModelError,
  window: number,
  policy: ContextRecoveryPolicy,
  compress: CompressHook | undefined,
): Promise<number | undefined> {
  if (!compress || state.compressions >= policy.maxAttempts) throw error;
  state.compressions++;
  const reason = error.kind === 'context_length' ? 'context_length' : 'payload_too_large';
  const contextLimit =
    reason === 'context_length' ? nextContextLimit(error, window, policy) : error.contextLimit;
  const info: Parameters<CompressHook>[1] = { reason };
  if (contextLimit !== undefined) info.contextLimit = contextLimit;
  const smaller = await compress(state.request, info);
  if (!smaller) throw error;
  state.request = smaller;
  return contextLimit;
}
