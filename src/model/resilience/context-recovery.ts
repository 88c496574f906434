/**
 * Recovery from "the request is too big" errors (`context_length`, HTTP 413,
 * and a bare 400 on a request big enough to be one): work out how big the
 * window really is, ask the context layer to shrink the request through the
 * compression seam, and try again.
 * @module
 */
import { ConfigError, ModelError } from '../../core/errors.js';
import type { ChatModel, ModelRequest } from '../types.js';
import { definedOnly } from './retry-policy.js';
import { estimatePromptTokens } from './stale-watch.js';

/** Why and how much a request must shrink; returned request replaces it, `undefined` = cannot shrink. */
export type CompressHook = (
  request: ModelRequest,
  info: { reason: 'context_length' | 'payload_too_large'; contextLimit?: number },
) => Promise<ModelRequest | undefined>;

/** Context-recovery options of the resilient invoker. */
export interface ContextRecoveryOptions {
  /** Compressions per `invoke`, shared by context-length and 413 errors (default 3). */
  maxAttempts?: number;
  /** Windows to step down through when the error names no limit (default 128k, 64k, 32k, 16k, 8k). */
  tiers?: number[];
  /** Window assumed for a model whose `info.contextWindow` is unknown (default 128 000). */
  defaultWindow?: number;
  /** A bare 400 (message `Error` or none) on a request of more messages than this is a context overflow (default 80). */
  overflowMessages?: number;
  /** …or on a request estimated above this share of the window (default 0.4). */
  overflowWindowShare?: number;
}

/** {@link ContextRecoveryOptions} with every default filled in; `tiers` sorted largest first. */
export interface ContextRecoveryPolicy {
  readonly maxAttempts: number;
  readonly tiers: readonly number[];
  readonly defaultWindow: number;
  readonly overflowMessages: number;
  readonly overflowWindowShare: number;
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
    overflowMessages: 80,
    overflowWindowShare: 0.4,
    ...definedOnly(options),
  };
  for (const key of ['maxAttempts', 'overflowMessages'] as const) {
    if (!Number.isInteger(policy[key]) || policy[key] < 0) {
      throw new ConfigError(`contextRecovery.${key} must be a non-negative integer, got ${policy[key]}`);
    }
  }
  if (!Number.isFinite(policy.overflowWindowShare) || policy.overflowWindowShare <= 0) {
    throw new ConfigError(
      `contextRecovery.overflowWindowShare must be a positive number, got ${policy.overflowWindowShare}`,
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

// What a 400 says when it says nothing: "Error", an empty body (the adapters
// write "HTTP 400") or the bare status text.
const BARE_MESSAGE = /^(?:error|bad request|http 400)?[.!]?$/i;

/**
 * True for a 400 that names no cause (seed §1 item 55: the body's message is
 * `Error` or empty). Some providers answer an oversized prompt this way, and
 * some fail transiently this way: it is worth one retry, unlike other 400s.
 */
export function isBare400(error: ModelError): boolean {
  return error.status === 400 && error.kind === 'bad_request' && BARE_MESSAGE.test(error.message.trim());
}

/**
 * The context-size error to recover from: `error` itself when it is one; a
 * `context_length` error standing for a bare 400 on a long conversation (more
 * than `overflowMessages` messages, or an estimate above `overflowWindowShare`
 * of `window` — seed §1 item 58's heuristic); else `undefined`.
 */
export function contextErrorOf(
  error: ModelError,
  request: ModelRequest,
  { window, policy }: ContextSizing,
): ModelError | undefined {
  if (isContextError(error)) return error;
  if (!isBare400(error)) return undefined;
  const messages = request.messages.length;
  const big =
    messages > policy.overflowMessages || estimatePromptTokens(request) > policy.overflowWindowShare * window;
  if (!big) return undefined;
  const why = `a bare 400 on a request of ${messages} messages, taken as a context overflow`;
  return new ModelError('context_length', `${error.message || 'HTTP 400'} (${why})`, {
    status: error.status,
    model: error.model,
    body: error.body,
    cause: error,
  });
}

/** The window a model is assumed to have before any error named one. */
export function windowOf(model: ChatModel, policy: ContextRecoveryPolicy): number {
  return model.info?.contextWindow ?? policy.defaultWindow;
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

/**
 * The window a request is judged against and the policy judging it; with the
 * `compress` seam, what a context recovery needs besides the request.
 */
export interface ContextSizing {
  /** The window the model is known (or assumed) to have. */
  window: number;
  policy: ContextRecoveryPolicy;
  /** The compression seam; without one the request cannot shrink. */
  compress?: CompressHook | undefined;
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
  { window, policy, compress }: ContextSizing,
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
