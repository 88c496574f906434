/**
 * JSON out of model replies. Models wrap JSON in code fences, surround it with
 * prose, emit several blocks, or write it slightly broken (trailing commas,
 * single quotes, cut off at the token limit). {@link extractJSON} and
 * {@link parseJSONLoose} find the value by one rule (candidates in order,
 * repaired when needed), {@link parseWithSchema} takes the first candidate a
 * zod schema accepts, and {@link generateObject} asks the model again —
 * telling it what was wrong — until the reply holds one.
 * @module
 */
import { prettifyError, type z } from 'zod/v4';
import { AbortError, errorMessage, isAbortError, ModelError, TandemError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import { type Message, textOf, userMessage } from '../core/messages.js';
import { type Clock, sleep, systemClock } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import type { ModelInvoker } from './invoke.js';
import { findJSON, type JsonShape, type Verdict } from './json-candidates.js';
import type { ModelRequest, ModelResponse } from './types.js';

/** Why a reply could not be turned into the value asked for. */
export type StructuredOutputErrorKind =
  | 'empty_reply'
  | 'no_json'
  | 'invalid_json'
  | 'schema_mismatch'
  | 'model_failed';

/** A reply that held no usable value, or a model that kept failing. */
export class StructuredOutputError extends TandemError<StructuredOutputErrorKind> {
  static override readonly brand: string = 'StructuredOutputError';

  /** The last raw reply text, when there was one. */
  readonly text?: string;
  /** Model calls made (0 when thrown by a parse function). */
  readonly attempts: number;
  /** Tokens spent on every attempt. */
  readonly usage: Usage;
  /** zod issues of a `schema_mismatch`. */
  readonly issues?: readonly z.core.$ZodIssue[];
  constructor(
    kind: StructuredOutputErrorKind,
    message: string,
    options: {
      text?: string;
      attempts?: number;
      usage?: Usage;
      issues?: readonly z.core.$ZodIssue[];
      cause?: unknown;
    } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.text = options.text;
    this.attempts = options.attempts ?? 0;
    this.usage = options.usage ?? emptyUsage();
    this.issues = options.issues;
  }
}

export type { JsonShape } from './json-candidates.js';

/** Options of {@link extractJSON} and {@link parseJSONLoose}. */
export interface ExtractOptions {
  expect?: JsonShape;
}

/**
 * The JSON text of the value in a model reply, ready for `JSON.parse`, or
 * `undefined` when the reply holds none.
 *
 * One rule for every reply: the bracketed values are candidates, tried in
 * order — the bodies of ```` ```json ```` / ```` ``` ```` fences, then the text
 * outside fences, then fences in other languages; within each, an enclosing
 * value before the values inside it. A candidate is parsed as is, else
 * repaired with `jsonrepair` (trailing commas, single quotes, comments, a
 * tail cut off at the token limit: the repaired text is returned). The first
 * candidate of the `expect`ed shape wins. Brackets inside strings do not
 * count, and nesting depth is unlimited. Without `expect` an object beats an
 * earlier array (prose like "see [1]" is valid JSON), and a top-level array
 * is returned whole.
 */
export function extractJSON(text: string, options: ExtractOptions = {}): string | undefined {
  const found = findJSON(text, options.expect, accept);
  return found.ok ? found.json : undefined;
}

/**
 * The JSON value in a model reply, found by the rule of {@link extractJSON}.
 * @throws {StructuredOutputError} `empty_reply`; `no_json` when the reply holds no bracketed value; `invalid_json` when none parses, even repaired; `schema_mismatch` when `expect` names a shape the reply's JSON does not have.
 */
export function parseJSONLoose(text: string, options: ExtractOptions = {}): unknown {
  return search(text, options.expect, accept);
}

function accept(value: unknown): Verdict<unknown> {
  return { ok: true, value };
}

/** {@link findJSON} on a non-empty reply, its miss thrown as a {@link StructuredOutputError}. */
function search<T>(text: string, expect: JsonShape | undefined, check: (value: unknown) => Verdict<T>): T {
  if (!text.trim()) throw new StructuredOutputError('empty_reply', 'The reply was empty.', { text });
  const found = findJSON(text, expect, check);
  if (found.ok) return found.value;
  const { kind, message, issues, cause } = found.miss;
  throw new StructuredOutputError(kind, message, { text, issues, cause });
}

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
  /** Receives `retry` events (and nothing else: calls are made with `stream: false`). */
  emit?: Emitter;
  /** Added into in place with the usage of every attempt, failed ones included. */
  usage?: Usage;
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
  /** Turns reply text into the value; throws {@link StructuredOutputError} when the reply is unusable. */
  parse: (text: string, response: ModelResponse) => T;
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
    await sleep(clock, delayMs, signal);
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
    response = await invoker.invoke({ ...request, messages: [...messages] }, { signal, emit, stream: false });
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw asAbortError(error, signal);
    const failure = new StructuredOutputError('model_failed', `Model call failed: ${errorMessage(error)}`, {
      cause: error,
    });
    const retryAfterMs = error instanceof ModelError ? (error.retryAfterMs ?? 0) : 0;
    return { failure, retryable: isRetryable(error), retryAfterMs };
  }
  addUsage(usage, response.usage);
  if (options.usage) addUsage(options.usage, response.usage);
  const text = textOf(response.message);
  try {
    return { object: options.parse(text, response), text, response };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    messages.push(response.message, userMessage((options.reask ?? defaultReask)(error)));
    return { failure: error, retryable: true, retryAfterMs: 0 };
  }
}

/** Options of {@link generateObject}. */
export interface GenerateObjectOptions<T> extends GenerateOptions {
  /** Shape the value must have. Its error text goes back to the model on a re-ask. */
  schema: z.ZodType<T>;
  /** Top-level JSON value to look for. */
  expect?: JsonShape;
}

/**
 * Asks the model for JSON matching `schema`: {@link parseJSONLoose} then
 * `schema.safeParse`, re-asking with the validation error on failure (see
 * {@link generateWithRetry} for attempts, waits and aborts).
 *
 * ```ts
 * const { object } = await generateObject({
 *   invoker: directInvoker(model),
 *   request: { system: 'Reply with JSON {"ok": boolean}.', messages: [userMessage('Task: ...')] },
 *   schema: z.object({ ok: z.boolean() }),
 * });
 * ```
 */
export function generateObject<T>(options: GenerateObjectOptions<T>): Promise<GenerateObjectResult<T>> {
  const { schema, expect } = options;
  return generateWithRetry({ ...options, parse: (text) => parseWithSchema(text, schema, expect) });
}

/**
 * The first value in a reply that `schema` accepts: the candidates of
 * {@link extractJSON}, in its order, each validated until one passes — so an
 * example block before the real one, or a step object inside a plan that
 * needed repair, does not win. When none passes, the error describes the
 * candidate that came closest (one that failed the schema over one of the
 * wrong shape over one that does not parse; the first among equals).
 * @throws {StructuredOutputError} `empty_reply`, `no_json`, `invalid_json` or `schema_mismatch` (message lists the issues).
 */
export function parseWithSchema<T>(text: string, schema: z.ZodType<T>, expect?: JsonShape): T {
  return search(text, expect, (value) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    const message = `The JSON does not have the required shape:\n${prettifyError(result.error)}`;
    return { ok: false, message, issues: result.error.issues };
  });
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
