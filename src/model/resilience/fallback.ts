/**
 * When the chain gives up on one model and moves to the next. The chain is
 * turn-scoped: every `invoke` starts again from the primary, so one bad
 * minute of a provider never pins a whole session to the fallback.
 * @module
 */
import { ConfigError, ModelError, type ModelErrorKind } from '../../core/errors.js';
import type { ErrorInfo } from '../../core/events.js';
import type { AssistantMessage } from '../../core/messages.js';
import { StreamInterruptedError } from './errors.js';

/** Fallback options of the resilient invoker. */
export interface FallbackOptions {
  /**
   * Kinds that move to the next model at once, without spending retries,
   * when there is a next model (default `['rate_limit', 'empty_response']`:
   * a rate-limited or empty-handed provider rarely recovers within seconds).
   * On the last model of the chain a rate limit is retried like any
   * retryable kind, and an empty reply is returned as is: the caller (the
   * executor) has its own empty-reply policy and knows whether an empty turn
   * after tool calls simply means "done".
   */
  eagerKinds?: ModelErrorKind[];
}

/** The default {@link FallbackOptions.eagerKinds}. */
export const DEFAULT_EAGER_FALLBACK_KINDS: readonly ModelErrorKind[] = Object.freeze([
  'rate_limit',
  'empty_response',
]);

/** Resolves {@link FallbackOptions} into the set the invoker checks. */
export function resolveEagerKinds(options: FallbackOptions = {}): ReadonlySet<ModelErrorKind> {
  const kinds = options.eagerKinds ?? DEFAULT_EAGER_FALLBACK_KINDS;
  for (const kind of kinds) {
    if (kind === 'context_length' || kind === 'payload_too_large' || kind === 'aborted') {
      throw new ConfigError(`fallback.eagerKinds cannot hold "${kind}": it is never a fallback trigger`);
    }
  }
  return new Set(kinds);
}

/**
 * True when a failed model may hand over to the next one: any model error
 * except an abort (the caller stopped), a context-size error (another model
 * gets the same oversized request; compression is the fix) and a failure
 * after partial delivery (a second model would repeat what was shown).
 */
export function canFallBack(error: unknown): error is ModelError {
  if (!(error instanceof ModelError) || error instanceof StreamInterruptedError) return false;
  return error.kind !== 'aborted' && error.kind !== 'context_length' && error.kind !== 'payload_too_large';
}

/** True when a reply has neither non-blank text nor a tool call (reasoning alone does not count). */
export function isEmptyReply(message: AssistantMessage): boolean {
  for (const part of message.content) {
    if (part.type === 'tool_call') return false;
    if (part.type === 'text' && part.text.trim() !== '') return false;
  }
  return true;
}

/** The error an empty reply becomes. */
export function emptyReplyError(modelId: string): ModelError {
  return new ModelError('empty_response', `${modelId}: reply had no text and no tool call`, {
    model: modelId,
  });
}

/** An error as `retry` and `fallback` events carry it. */
export function errorInfo(error: ModelError): ErrorInfo {
  return { kind: error.kind, message: error.message };
}
