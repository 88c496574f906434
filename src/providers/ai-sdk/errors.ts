/**
 * AI SDK errors → {@link ModelError}. AI SDK errors are recognised by their
 * `Symbol.for('vercel.ai.error.<name>')` marker or their `name`, never by
 * `instanceof`, since `ai` is not loaded at runtime (and a user may have more
 * than one copy of it).
 * @module
 */
import { errorMessage, ModelError, type ModelErrorKind } from '../../core/errors.js';
import { type ErrorContext, errorFromBody, networkError, parseJSONOrText } from '../shared/errors.js';

interface APICallErrorLike {
  message: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  data?: unknown;
  cause?: unknown;
}

function hasName(error: unknown, name: string): boolean {
  if (error === null || typeof error !== 'object') return false;
  const marker = Symbol.for(`vercel.ai.error.${name}`);
  return (error as Record<symbol, unknown>)[marker] === true || (error as { name?: unknown }).name === name;
}

// Non-HTTP AI SDK errors whose meaning is clear from their name.
const NAMED_KINDS: Array<[string, ModelErrorKind]> = [
  ['AI_LoadAPIKeyError', 'auth'],
  ['AI_NoSuchModelError', 'not_found'],
  ['AI_EmptyResponseBodyError', 'empty_response'],
  ['AI_NoContentGeneratedError', 'empty_response'],
  ['AI_InvalidResponseDataError', 'invalid_response'],
  ['AI_JSONParseError', 'invalid_response'],
  ['AI_TypeValidationError', 'invalid_response'],
  ['AI_InvalidPromptError', 'bad_request'],
  ['AI_InvalidArgumentError', 'bad_request'],
  ['AI_UnsupportedFunctionalityError', 'bad_request'],
  ['AI_LoadSettingError', 'bad_request'],
];

// Every AI SDK error class carries this marker besides its own.
const AI_SDK_ERROR = Symbol.for('vercel.ai.error');

function isAISDKError(error: unknown): boolean {
  return (
    error !== null && typeof error === 'object' && (error as Record<symbol, unknown>)[AI_SDK_ERROR] === true
  );
}

function fromAPICallError(error: APICallErrorLike, ctx: ErrorContext, signal?: AbortSignal): ModelError {
  const status = error.statusCode;
  // No status: the request never got an answer (the AI SDK wraps fetch failures this way).
  if (status === undefined) return networkError(error.cause ?? error, ctx);
  // A success status: reading the body failed, and the cause says how (a reset socket, a parse error).
  if (status >= 200 && status < 300 && error.cause !== undefined) {
    return isAISDKError(error.cause)
      ? toModelError(error.cause, ctx, signal)
      : networkError(error.cause, ctx);
  }
  const id = `${ctx.provider}:${ctx.model}`;
  const body = error.data ?? (error.responseBody ? parseJSONOrText(error.responseBody) : undefined);
  const headers = new Headers();
  for (const [key, value] of Object.entries(error.responseHeaders ?? {})) {
    if (typeof value === 'string') headers.set(key, value);
  }
  // The provider's body decides the kind; the AI SDK's message (already the provider's words) is shown.
  const mapped = errorFromBody({ status, body: body ?? error.message, headers }, ctx);
  return new ModelError(mapped.kind, error.message || mapped.message, {
    status,
    retryAfterMs: mapped.retryAfterMs,
    contextLimit: mapped.contextLimit,
    model: id,
    retryable: mapped.retryable,
    body: body ?? error.responseBody,
    cause: error,
  });
}

/**
 * Maps anything an AI SDK model threw (or put in an `error` stream part).
 * `signal` tells a caller's abort from the provider's own failures.
 */
export function toModelError(error: unknown, ctx: ErrorContext, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  const id = `${ctx.provider}:${ctx.model}`;
  if (signal?.aborted) {
    return new ModelError('aborted', `${id}: request aborted`, { model: id, cause: signal.reason ?? error });
  }
  if (hasName(error, 'AI_RetryError')) {
    const last = (error as { lastError?: unknown }).lastError;
    if (last !== undefined) return toModelError(last, ctx, signal);
  }
  if (hasName(error, 'AI_APICallError')) return fromAPICallError(error as APICallErrorLike, ctx, signal);
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError') return networkError(error, ctx);
  for (const [errorName, kind] of NAMED_KINDS) {
    if (hasName(error, errorName)) {
      return new ModelError(kind, `${id}: ${errorMessage(error)}`, { model: id, cause: error });
    }
  }
  // Anything else is the model implementation failing in a way no retry is known to fix.
  return new ModelError('server', `${id}: ${errorMessage(error)}`, {
    model: id,
    retryable: false,
    cause: error,
  });
}
