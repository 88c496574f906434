/**
 * JSON out of model replies. Models wrap JSON in code fences, surround it with
 * prose, emit several blocks, or write it slightly broken (trailing commas,
 * single quotes, cut off at the token limit). {@link extractJSON} finds the
 * value with a real brace scanner, {@link parseJSONLoose} parses it (repairing
 * with `jsonrepair` when needed), and {@link generateObject} asks the model
 * again — telling it what was wrong — until the reply matches a zod schema.
 * @module
 */
import { jsonrepair } from 'jsonrepair';
import { prettifyError, type z } from 'zod/v4';
import { AbortError, errorMessage, isAbortError, ModelError, TandemError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import { type Message, textOf, userMessage } from '../core/messages.js';
import { type Clock, sleep, systemClock } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import type { ModelInvoker } from './invoke.js';
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

/** Which top-level JSON value a caller wants. Without it objects are preferred over arrays. */
export type JsonShape = 'object' | 'array';

/** Options of {@link extractJSON} and {@link parseJSONLoose}. */
export interface ExtractOptions {
  expect?: JsonShape;
}

const FENCE = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g;
const JSON_FENCE_LANGS = new Set(['', 'json', 'json5', 'jsonc']);
const PREVIEW_CHARS = 200;

/**
 * The JSON text inside a model reply, or `undefined` when it holds none.
 *
 * Order: the bodies of ```` ```json ```` / ```` ``` ```` fences, then the
 * whole text. Within each, the first balanced `{…}` (or `[…]`) that parses
 * wins; braces inside strings do not count, and nesting depth is unlimited.
 * An object is preferred over an earlier array (prose like "see [1]" is valid
 * JSON) unless `expect` says otherwise. When nothing parses, the first
 * balanced candidate is returned, else an unclosed one up to the end of the
 * text (a reply cut off mid-value), for the caller to repair.
 */
export function extractJSON(text: string, options: ExtractOptions = {}): string | undefined {
  let loose: string | undefined;
  for (const match of text.matchAll(FENCE)) {
    if (!JSON_FENCE_LANGS.has(match[1]!.trim().toLowerCase())) continue;
    const found = scanForJSON(match[2]!, options.expect);
    if (found.parsed !== undefined) return found.parsed;
    loose ??= found.loose;
  }
  const found = scanForJSON(text, options.expect);
  return found.parsed ?? loose ?? found.loose;
}

/**
 * The JSON value inside a model reply: {@link extractJSON}, then `JSON.parse`,
 * then `jsonrepair` for near-JSON (trailing commas, single quotes, comments,
 * a truncated tail).
 * @throws {StructuredOutputError} `empty_reply`, `no_json` when the reply holds no JSON, `invalid_json` when it cannot be repaired.
 */
export function parseJSONLoose(text: string, options: ExtractOptions = {}): unknown {
  if (!text.trim()) throw new StructuredOutputError('empty_reply', 'The reply was empty.', { text });
  const candidate = extractJSON(text, options);
  if (candidate === undefined) {
    throw new StructuredOutputError('no_json', `The reply contains no JSON: ${preview(text)}`, { text });
  }
  try {
    return JSON.parse(candidate);
  } catch {
    // Near-JSON is common; the repair below decides whether it is usable.
  }
  try {
    return JSON.parse(jsonrepair(candidate));
  } catch (error) {
    throw new StructuredOutputError(
      'invalid_json',
      `The reply is not valid JSON (${errorMessage(error)}): ${preview(candidate)}`,
      { text, cause: error },
    );
  }
}

interface ScanResult {
  parsed?: string;
  loose?: string;
}

function scanForJSON(text: string, expect: JsonShape | undefined): ScanResult {
  let firstArray: string | undefined;
  let looseObject: string | undefined;
  let looseArray: string | undefined;
  let i = 0;
  while (i < text.length) {
    const open = nextOpener(text, i, expect);
    if (open < 0) break;
    const isObject = text[open] === '{';
    const end = balancedEnd(text, open);
    const candidate = end < 0 ? text.slice(open) : text.slice(open, end);
    if (end >= 0 && parses(candidate)) {
      if (isObject) return { parsed: candidate };
      firstArray ??= candidate;
      i = end;
      continue;
    }
    if (isObject) looseObject ??= candidate;
    else looseArray ??= candidate;
    // The value may sit inside braces that are not JSON themselves (code, templates).
    i = open + 1;
  }
  return { parsed: firstArray, loose: looseObject ?? looseArray };
}

function nextOpener(text: string, from: number, expect: JsonShape | undefined): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if ((c === '{' && expect !== 'array') || (c === '[' && expect !== 'object')) return i;
  }
  return -1;
}

/** Index just past the bracket closing the one at `start`, or -1 when it never closes (or closes wrongly). */
function balancedEnd(text: string, start: number): number {
  const closers: string[] = [];
  let quote = '';
  // Last non-space character outside strings: a single quote opens a string only where a value may start.
  let previous = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && '{[:,'.includes(previous))) quote = c;
    else if (c === '{') closers.push('}');
    else if (c === '[') closers.push(']');
    else if (c === '}' || c === ']') {
      if (closers.pop() !== c) return -1;
      if (closers.length === 0) return i + 1;
    }
    if (c.trim()) previous = c;
  }
  return -1;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function preview(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > PREVIEW_CHARS ? `${trimmed.slice(0, PREVIEW_CHARS)}...` : trimmed;
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
 * {@link parseJSONLoose} followed by `schema.safeParse`.
 * @throws {StructuredOutputError} `empty_reply`, `no_json`, `invalid_json` or `schema_mismatch` (message lists the issues).
 */
export function parseWithSchema<T>(text: string, schema: z.ZodType<T>, expect?: JsonShape): T {
  const result = schema.safeParse(parseJSONLoose(text, { expect }));
  if (result.success) return result.data;
  throw new StructuredOutputError(
    'schema_mismatch',
    `The JSON does not have the required shape:\n${prettifyError(result.error)}`,
    { text, issues: result.error.issues },
  );
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
