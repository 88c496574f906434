/**
 * Asking a model until its reply holds a usable value: {@link generateWithRetry}
 * re-asks an unusable reply — telling the model what was wrong — and repeats
 * a retryable failed call; {@link generateObject} does it for a schema, in
 * the model's native JSON-schema mode where it has one.
 * @module
 */
import {
  AbortError,
  ConfigError,
  errorMessage,
  isAbortError,
  ModelError,
  TandemError,
} from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import { type Message, textOf, userMessage } from '../core/messages.js';
import { type Clock, sleep, systemClock } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import type { ModelInvoker } from './invoke.js';
import type { JsonShape } from './json-candidates.js';
import { parseWithSchemaAsync, StructuredOutputError } from './json-parse.js';
import { watchPartialObject } from './partial-object.js';
import type { Schema } from './schema.js';
import { outputFormat, responseFormatFor, structuredOutputMode } from './structured.js';
import type { ModelRequest, ModelResponse, ResponseFormat } from './types.js';

/** Options shared by {@link generateObject} and {@link generateWithRetry}. */
export interface GenerateOptions {
  invoker: ModelInvoker;
  /** The first request; re-asks append the reply and a correction to its messages. */
  request: ModelRequest;
  /** Model calls in all, including re-asks. Default 3. */
  attempts?: number;
  /** Wait before attempt k+1 is `delays[k-1]` (the last entry repeats). Default `[2500, 3750]`. */
  delays?: readonly number[];
  /** Clock the waits run on. Default the system clock. */
  clock?: Clock;
  signal?: AbortSignal;
  /** Receives `retry` events, and `token` events when `stream` is on. */
  emit?: Emitter;
  /** Stream each call (default false). */
  stream?: boolean;
  /** With `stream`, called with the value of each reply as it grows (see `watchPartialObject`). */
  onPartialObject?: (object: unknown) => void;
  /** Added into in place with the usage of every attempt, failed ones included. */
  usage?: Usage;
  /**
   * Called with every reply, usable or not, before it is parsed: e.g. to book
   * each call's usage to the model that answered it (`response.model`).
   */
  onResponse?: (response: ModelResponse) => void;
}

/** What a successful generation returns. */
export interface GenerateObjectResult<T> {
  /** The parsed, validated value. */
  object: T;
  /** Raw text of the accepted reply. */
  text: string;
  response: ModelResponse;
  /** Usage of every attempt. */
  usage: Usage;
  /** Model calls made. */
  attempts: number;
}

/** Options of {@link generateWithRetry}. */
export interface GenerateWithRetryOptions<T> extends GenerateOptions {
  /** Turns reply text into the value; throws (or rejects with) {@link StructuredOutputError} when the reply is unusable. */
  parse: (text: string, response: ModelResponse) => T | Promise<T>;
  /** The user message sent after an unusable reply. Default: the error and a request for corrected JSON. */
  reask?: (error: StructuredOutputError) => string;
}

/** Default attempts of {@link generateObject}. */
export const DEFAULT_ATTEMPTS = 3;
/** Default waits between attempts, in ms (seed: 2500 × 1.5^(k−1)). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [2500, 3750];

/**
 * Calls the model until `parse` accepts the reply. An unusable reply is
 * re-asked: the reply and a user message describing what was wrong are
 * appended to the conversation. A failed model call is repeated unchanged when
 * it is retryable (a {@link ModelError} with `retryable`, or a non-tandem
 * error such as a network `TypeError`), waiting at least its `retryAfterMs`.
 * An abort is never retried.
 * @throws {AbortError} when `signal` aborts.
 * @throws {StructuredOutputError} after the last attempt, or at once for a non-retryable model error (`model_failed`).
 */
export async function generateWithRetry<T>(
  options: GenerateWithRetryOptions<T>,
): Promise<GenerateObjectResult<T>> {
  const { invoker, signal, emit } = options;
  const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  const clock = options.clock ?? systemClock;
  const messages: Message[] = [...options.request.messages];
  const usage = emptyUsage();
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new AbortError(signal.reason);
    const outcome = await attemptOnce(options, messages, usage);
    if ('object' in outcome) return { ...outcome, usage, attempts: attempt };
    const { failure, retryable, retryAfterMs } = outcome;
    if (!retryable || attempt >= attempts) throw finalError(failure, attempt, usage);
    const delayMs = Math.max(
      delayBefore(attempt + 1, options.delays ?? DEFAULT_RETRY_DELAYS_MS),
      retryAfterMs,
    );
    emit?.emit('retry', {
      model: invoker.id,
      attempt: attempt + 1,
      delayMs,
      error: { kind: failure.kind, message: failure.message },
    });
    // No wait, no timer: on a test clock a zero-length timer would wait for the clock to move.
    if (delayMs > 0) await sleep(clock, delayMs, signal);
  }
}

type Attempt<T> =
  | { object: T; text: string; response: ModelResponse }
  | { failure: StructuredOutputError; retryable: boolean; retryAfterMs: number };

/** One model call and its parse. On an unusable reply, appends the reply and the re-ask to `messages`. */
async function attemptOnce<T>(
  options: GenerateWithRetryOptions<T>,
  messages: Message[],
  usage: Usage,
): Promise<Attempt<T>> {
  const { invoker, request, signal, emit } = options;
  let response: ModelResponse;
  try {
    const stream = options.stream === true;
    const onPart =
      stream && options.onPartialObject ? watchPartialObject(options.onPartialObject) : undefined;
    response = await invoker.invoke(
      { ...request, messages: [...messages] },
      { signal, emit, stream, onPart },
    );
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw asAbortError(error, signal);
    const failure = new StructuredOutputError('model_failed', `Model call failed: ${errorMessage(error)}`, {
      cause: error,
    });
    const retryAfterMs = error instanceof ModelError ? (error.retryAfterMs ?? 0) : 0;
    // An invoker that retries has already spent its retries on this failure.
    return { failure, retryable: !invoker.retries && isRetryable(error), retryAfterMs };
  }
  addUsage(usage, response.usage);
  if (options.usage) addUsage(options.usage, response.usage);
  options.onResponse?.(response);
  const text = textOf(response.message);
  try {
    return { object: await options.parse(text, response), text, response };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    messages.push(response.message, userMessage((options.reask ?? defaultReask)(error)));
    return { failure: error, retryable: true, retryAfterMs: 0 };
  }
}

/** Options of {@link generateObject}. */
export interface GenerateObjectOptions<T> extends GenerateOptions {
  /** Shape the value must have: a zod 4 schema, any Standard Schema, or `jsonSchema()`. Its issues go back to the model on a re-ask. */
  schema: Schema<T>;
  /** Top-level JSON value to look for. */
  expect?: JsonShape;
  /**
   * Ask in the model's own JSON mode (`ModelInfo.structuredOutput`): the
   * schema as `responseFormat` where the provider enforces it, plain JSON
   * where it only guarantees JSON. A `responseFormat` in `request` wins.
   * Default true.
   */
  native?: boolean;
  /** Name of the schema, where the provider takes one. Default `response`. */
  name?: string;
}

/**
 * Asks the model for JSON matching `schema` — natively where the model can
 * (see `native`) — then {@link parseWithSchemaAsync}, re-asking with the
 * validation issues on failure (see {@link generateWithRetry} for attempts,
 * waits and aborts).
 *
 * ```ts
 * const { object } = await generateObject({
 *   invoker: directInvoker(model),
 *   request: { system: 'Reply with JSON {"ok": boolean}.', messages: [userMessage('Task: ...')] },
 *   schema: z.object({ ok: z.boolean() }),
 * });
 * ```
 */
export async function generateObject<T>(options: GenerateObjectOptions<T>): Promise<GenerateObjectResult<T>> {
  const { schema, expect, request } = options;
  const format =
    request.responseFormat ?? (options.native === false ? undefined : await nativeFormat(options));
  return generateWithRetry({
    ...options,
    request: format ? { ...request, responseFormat: format } : request,
    parse: (text) => parseWithSchemaAsync(text, schema, expect),
  });
}

/**
 * The response format the model's mode asks for. A schema without a JSON
 * Schema still gets the model's plain JSON mode: the prompt describes it.
 */
async function nativeFormat<T>(options: GenerateObjectOptions<T>): Promise<ResponseFormat | undefined> {
  const mode = structuredOutputMode(options.invoker.model.info);
  if (mode === 'none') return undefined;
  // Plain JSON mode needs no JSON Schema: none is converted for it.
  if (mode === 'json') return { type: 'json' };
  try {
    return responseFormatFor(await outputFormat(options.schema, { name: options.name }), mode);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { type: 'json' };
  }
}

function defaultReask(error: StructuredOutputError): string {
  return `Your previous reply could not be used. ${error.message}\n\nReply again with only the corrected JSON, no other text.`;
}

function delayBefore(attempt: number, delays: readonly number[]): number {
  if (delays.length === 0) return 0;
  return delays[Math.min(attempt - 2, delays.length - 1)] ?? 0;
}

function isRetryable(error: unknown): boolean {
  if (error instanceof ModelError) return error.retryable;
  return !(error instanceof TandemError);
}

function asAbortError(error: unknown, signal: AbortSignal | undefined): AbortError {
  if (error instanceof AbortError) return error;
  return new AbortError(signal?.aborted ? signal.reason : error);
}

function finalError(error: StructuredOutputError, attempts: number, usage: Usage): StructuredOutputError {
  const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  return new StructuredOutputError(error.kind, `${error.message}${suffix}`, {
    text: error.text,
    attempts,
    usage,
    issues: error.issues,
    cause: error.cause ?? error,
  });
}
