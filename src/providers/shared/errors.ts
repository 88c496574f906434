/**
 * Maps what providers send back on failure (HTTP status, error bodies,
 * network failures) to a typed {@link ModelError}, so retry, fallback and
 * context recovery switch on `kind` and never on a provider's wording.
 * @module
 */
import { ModelError, type ModelErrorKind } from '../../core/errors.js';
import { systemClock } from '../../core/seams.js';
import { isBareNotFound, pageLine, pageMessage } from './error-page.js';

/** Who a failure came from; `model` is the provider's model name. */
export interface ErrorContext {
  provider: string;
  model: string;
}

/** Context for {@link errorFromResponse} / {@link errorFromBody}. */
export interface ResponseErrorContext extends ErrorContext {
  /** Provider-specific recognition of context-length messages, tried before the generic phrases. */
  isContextLength?: (message: string) => boolean;
  /** Current time in ms, for `retry-after` HTTP-dates. */
  now?: number;
  /**
   * The error arrived after the model had produced output (inside a stream):
   * it cannot be a rejected prompt, so it is never classed `context_length`
   * (OpenRouter's "Token limit reached" after `finish_reason: length`).
   */
  afterOutput?: boolean;
  /**
   * The URL called: named in the message of a reply that is not the
   * provider's error JSON, and of every 404, with what to check.
   */
  url?: string;
}

// Generic phrases (seed-behaviours §58) plus the wording of OpenAI, Anthropic,
// Gemini, vLLM and llama.cpp; each names the prompt being too big for the window.
const CONTEXT_PHRASES =
  /context[ _]length|context size|maximum context|token limit|too many tokens|reduce the length|exceeds the limit|context window|request entity too large|prompt is too long|exceeds the maximum number of tokens|input is too long|context_length_exceeded/i;

const CONTENT_FILTER_CODES = new Set([
  'content_filter',
  'content_policy_violation',
  'responsibleaipolicyviolation',
  'safety',
  'prohibited_content',
]);

/** True when a provider message says the prompt does not fit the context window. */
export function isContextLengthMessage(message: string): boolean {
  return CONTEXT_PHRASES.test(message);
}

const LIMIT_PATTERNS: RegExp[] = [
  // OpenAI, DeepSeek, vLLM, Groq: "maximum context length is 128000 tokens"
  /maximum context (?:length|window|size) (?:is|of) ([\d,]+)/i,
  // Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"
  /tokens? > ([\d,]+) maximum/i,
  // Gemini: "exceeds the maximum number of tokens allowed (1048576)"
  /maximum number of tokens allowed \(([\d,]+)\)/i,
  // llama.cpp: "exceeds the available context size (4096 tokens)"
  /context (?:size|window|length) \(([\d,]+) tokens?\)/i,
  // "context window of 32768 tokens", "context length of 8192"
  /context (?:length|window|size) (?:is|of) ([\d,]+)/i,
  // TGI: "inputs tokens + max_new_tokens must be <= 4096"
  /must be <= ([\d,]+)/i,
  // Kimi / Moonshot: "exceeded model token limit: 8192 (requested: 9310)"
  /token limit:? ([\d,]+)/i,
];

/** The context window a context-length error message names, e.g. "maximum context length is 128000 tokens". */
export function contextLimitFromMessage(message: string): number | undefined {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(message);
    if (!match?.[1]) continue;
    const n = Number(match[1].replace(/,/g, ''));
    if (Number.isFinite(n) && n > 0) return n;
  }
  return undefined;
}

/**
 * The wait a response asks for: `retry-after-ms`, then `retry-after` as
 * seconds or an HTTP-date (relative to `nowMs`). Past dates and negative
 * values become 0; unparsable values give `undefined`.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n)) return Math.max(0, n);
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Fields of a provider error body, whichever provider's shape it has. */
interface ErrorFields {
  message?: string;
  code?: string;
  type?: string;
  retryDelayMs?: number;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

// Gemini puts the wait into google.rpc.RetryInfo: { retryDelay: "17s" }.
function retryDelayFrom(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = asRecord(detail)?.retryDelay;
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (match?.[1]) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

/** Reads message, code and type from OpenAI, Anthropic, Gemini, OpenRouter and FastAPI-style bodies. */
function errorFields(body: unknown): ErrorFields {
  const root = asRecord(body);
  if (!root) return typeof body === 'string' && body.trim() ? { message: body.trim() } : {};
  const inner = asRecord(root.error);
  if (!inner) {
    return {
      message: str(root.error) ?? str(root.message) ?? str(root.detail),
      code: str(root.code),
      type: str(root.type),
    };
  }
  let message = str(inner.message) ?? str(root.message);
  // OpenRouter wraps the upstream provider's words in metadata.raw.
  const raw = str(asRecord(inner.metadata)?.raw);
  if (raw && message && !message.includes(raw)) message = `${message}: ${raw}`;
  const innerCode = str(asRecord(inner.innererror)?.code);
  return {
    message: message ?? raw,
    code: innerCode ?? str(inner.code) ?? str(inner.status),
    type: str(inner.type) ?? str(inner.status),
    retryDelayMs: retryDelayFrom(inner.details),
  };
}

/** The kind of an error of HTTP `status` whose body said `fields` (`fields.message`: the body's, else the status). */
function kindFor(status: number, fields: Said, ctx: ResponseErrorContext): ModelErrorKind {
  const { message } = fields;
  const code = fields.code?.toLowerCase() ?? '';
  const type = fields.type?.toLowerCase() ?? '';
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status === 503 && /overloaded/i.test(message)) return 'overloaded';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (CONTENT_FILTER_CODES.has(code) || CONTENT_FILTER_CODES.has(type)) return 'content_filter';
  // Groq: the model wrote a tool call that failed validation; sampling again usually fixes it.
  if (code === 'tool_use_failed') return 'invalid_response';
  const contextLength =
    code === 'context_length_exceeded' || ctx.isContextLength?.(message) || isContextLengthMessage(message);
  if (contextLength && !ctx.afterOutput) return 'context_length';
  if (status >= 400) return 'bad_request';
  return 'invalid_response';
}

/** The fields of an error body, its message filled in (the status) when the body names none. */
type Said = ErrorFields & { message: string };

/** An error answer: its status, its parsed body, and the HTTP headers when it came as a response. */
export interface ErrorReply {
  /** The HTTP status, or the status the body names. */
  status: number;
  body: unknown;
  /** For `retry-after`. */
  headers?: Headers | undefined;
}

/**
 * A {@link ModelError} from an already parsed error body (HTTP error bodies,
 * and errors servers send inside a 200 stream).
 */
export function errorFromBody(reply: ErrorReply, ctx: ResponseErrorContext): ModelError {
  return errorOf(reply, ctx);
}

/** How {@link errorOf} shows an error: the message made of the body's, and the body kept. */
interface Shown {
  message(said: string): string;
  body?: unknown;
}

/** {@link errorFromBody}, the message and the body kept as `shown` says. */
function errorOf(reply: ErrorReply, ctx: ResponseErrorContext, shown?: Shown): ModelError {
  const { status, body, headers } = reply;
  const fields = errorFields(body);
  // A fresh object: filled in place, the message it is classed by is the one shown.
  fields.message ??= `HTTP ${status}`;
  const said = fields.message;
  const kind = kindFor(status, fields as Said, ctx);
  const message = shown ? shown.message(said) : said;
  const retryAfterMs =
    kind === 'rate_limit' || kind === 'overloaded' || kind === 'server'
      ? ((headers ? parseRetryAfter(headers, ctx.now ?? systemClock.now()) : undefined) ??
        fields.retryDelayMs)
      : undefined;
  return new ModelError(kind, message, {
    status,
    retryAfterMs,
    contextLimit: kind === 'context_length' ? contextLimitFromMessage(message) : undefined,
    model: `${ctx.provider}:${ctx.model}`,
    // Quota exhaustion arrives as 429 but no wait fixes it.
    retryable: fields.code === 'insufficient_quota' ? false : undefined,
    body: shown && 'body' in shown ? shown.body : body,
  });
}

/**
 * The HTTP status an error body names (`status_code`, a numeric `code`, or a
 * numeric `status`), for errors that arrive inside a 200 stream; else `fallback`.
 */
export function statusOfErrorBody(body: unknown, fallback: number): number {
  const inner = asRecord(asRecord(body)?.error) ?? asRecord(body);
  for (const value of [inner?.status_code, inner?.code, inner?.status]) {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    if (Number.isInteger(n) && n >= 400 && n < 600) return n;
  }
  return fallback;
}

/** Parses `text` as JSON, or returns it unchanged when it is not JSON. */
export function parseJSONOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A {@link ModelError} for a non-2xx HTTP response. The message is the
 * provider's own when its body is the API's error JSON. A body that is not
 * (a plain-text or HTML page, or a bare "Not Found") comes from whatever
 * answers at the URL: the message is the page as one short line, and for a
 * 404 or 405 the URL called and what to check; `body` keeps the page's first
 * 500 characters.
 */
export function errorFromResponse(
  response: Pick<Response, 'status' | 'headers'>,
  bodyText: string,
  ctx: ResponseErrorContext,
): ModelError {
  const { status, headers } = response;
  const body = parseJSONOrText(bodyText);
  if (typeof body === 'string') {
    const line = pageLine(body);
    return errorOf({ status, body: line, headers }, ctx, {
      message: () => pageMessage(status, line, ctx.url),
      body: body.length > 500 ? `${body.slice(0, 500)}…` : body,
    });
  }
  // A JSON error of the API itself (an unknown model) means the URL is right: its words are enough.
  if (status !== 404 || ctx.url === undefined || !isBareNotFound(errorFields(body).message)) {
    return errorOf({ status, body, headers }, ctx);
  }
  const { url } = ctx;
  return errorOf({ status, body, headers }, ctx, { message: (said) => pageMessage(status, said, url) });
}

const CONNECTION_PATTERN =
  /ECONNRESET|ECONNREFUSED|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|fetch failed|terminated|other side closed|UND_ERR_SOCKET|network|connection/i;
const TIMEOUT_PATTERN =
  /ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|timed? ?out/i;

// undici hides the socket error behind `cause` (TypeError: fetch failed → cause.code ECONNREFUSED).
function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  // fetch quotes a URL with credentials in its message; the message must not carry them on.
  return parts.filter(Boolean).join(': ').replace(CREDENTIALS, '//***@') || 'unknown network error';
}

const CREDENTIALS = /\/\/[^\s/@]+@/g;

/** The `aborted` error of a call whose signal fired; never retried. */
export function abortedError(ctx: ErrorContext, reason?: unknown): ModelError {
  const model = `${ctx.provider}:${ctx.model}`;
  return new ModelError('aborted', `${model}: request aborted`, { model, cause: reason });
}

/**
 * A {@link ModelError} for a request that failed without an HTTP response:
 * an abort becomes `aborted` (never retried), a timeout `timeout`, resets and
 * refused connections `connection`.
 */
export function networkError(error: unknown, ctx: ErrorContext): ModelError {
  if (error instanceof ModelError) return error;
  const model = `${ctx.provider}:${ctx.model}`;
  const name = error instanceof Error ? error.name : '';
  const detail = describe(error);
  if (name === 'AbortError' || (error instanceof Error && (error as { kind?: unknown }).kind === 'aborted')) {
    return abortedError(ctx, error);
  }
  if (name === 'TimeoutError' || TIMEOUT_PATTERN.test(detail)) {
    return new ModelError('timeout', `${model}: request timed out (${detail})`, { model, cause: error });
  }
  if (/includes credentials/i.test(detail)) {
    const message = `${model}: the baseURL includes a user name or password (${detail}); pass the key as apiKey or in headers`;
    return new ModelError('bad_request', message, { model });
  }
  if (/Failed to parse URL|Invalid URL/i.test(detail)) {
    return new ModelError('bad_request', `${model}: ${detail}`, { model, cause: error });
  }
  const reason = CONNECTION_PATTERN.test(detail) ? detail : `network error: ${detail}`;
  return new ModelError('connection', `${model}: connection failed (${reason})`, { model, cause: error });
}
