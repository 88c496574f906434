/**
 * The HTTP layer every provider adapter shares: one JSON POST with a
 * time-to-headers timeout, cancellation, and failures mapped to a typed
 * {@link ModelError}. Uses only `fetch`, so adapters run on any runtime.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import { type Clock, systemClock } from '../../core/seams.js';
import { abortedError, errorFromResponse, networkError } from './errors.js';

export {
  abortedError,
  contextLimitFromMessage,
  type ErrorContext,
  errorFromBody,
  errorFromResponse,
  isContextLengthMessage,
  networkError,
  parseJSONOrText,
  parseRetryAfter,
  type ResponseErrorContext,
  statusOfErrorBody,
} from './errors.js';

/** Transport options every provider factory accepts. */
export interface HttpConfig {
  /** `fetch` to use (default `globalThis.fetch`): for proxies, tests, custom agents. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Request timeout: fail with `timeout` when no response headers arrive within this many ms. */
  timeoutMs?: number;
  /**
   * Called once when a request is refused with 401: returns a fresh key
   * (short-lived tokens, rotated secrets), which then replaces `apiKey` for
   * every later request; the refused request is sent again with it.
   */
  refreshApiKey?: () => string | Promise<string>;
}

/** One JSON POST to a provider. */
export interface PostOptions {
  url: string;
  body: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Provider name, for error messages and `ModelError.model`. */
  provider: string;
  /** Provider's model name, for error messages and `ModelError.model`. */
  model: string;
  /** Provider-specific recognition of context-length messages. */
  isContextLength?: (message: string) => boolean;
  /** Timer source for the timeout (default the system clock). */
  clock?: Clock;
  /**
   * Called once when the server answers 401: refreshes the credentials and
   * returns the headers that replace the request's own when it is sent again.
   */
  reauthorize?: () => Promise<Record<string, string>>;
}

// AbortSignal.any releases its listeners with the signals; the manual link is
// only for runtimes that lack it.
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

function serialize(body: unknown, model: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ModelError('bad_request', `${model}: request body is not serialisable as JSON`, {
      model,
      cause: error,
    });
  }
}

/**
 * POSTs `body` as JSON and returns the response once its status is 2xx.
 * Anything else throws a {@link ModelError}: the provider's error mapped by
 * status and body, `timeout` when no headers arrive within `timeoutMs`,
 * `aborted` when `signal` aborts, `connection` for network failures. The
 * signal keeps governing the response body after this returns.
 */
export async function postJSON(options: PostOptions): Promise<Response> {
  if (!options.reauthorize) return postOnce(options);
  try {
    return await postOnce(options);
  } catch (error) {
    // One refresh per request: a key that still fails after it is reported as it is.
    if (!(error instanceof ModelError) || error.status !== 401) throw error;
    return postOnce({ ...options, headers: { ...options.headers, ...(await options.reauthorize()) } });
  }
}

async function postOnce(options: PostOptions): Promise<Response> {
  const { provider, model, signal, timeoutMs } = options;
  const ctx = { provider, model };
  const id = `${provider}:${model}`;
  if (signal?.aborted) {
    throw abortedError(ctx, signal.reason);
  }
  const payload = serialize(options.body, id);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeout = timeoutMs && timeoutMs > 0 ? new AbortController() : undefined;
  const signals = [signal, timeout?.signal].filter((s): s is AbortSignal => s !== undefined);
  const fetchSignal = signals.length > 1 ? anySignal(signals) : signals[0];
  let timedOut = false;
  const cancelTimer =
    timeout &&
    (options.clock ?? systemClock).setTimer(timeoutMs as number, () => {
      timedOut = true;
      timeout.abort();
    });
  let response: Response;
  try {
    response = await fetchImpl(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: payload,
      signal: fetchSignal,
    });
  } catch (error) {
    if (timedOut) {
      throw new ModelError('timeout', `${id}: no response within ${timeoutMs} ms`, {
        model: id,
        cause: error,
      });
    }
    if (signal?.aborted) {
      throw abortedError(ctx, signal.reason);
    }
    throw networkError(error, ctx);
  } finally {
    cancelTimer?.();
  }
  if (response.ok) return response;
  // An unreadable error body still leaves the status to classify by.
  const text = await response.text().catch(() => '');
  if (signal?.aborted) {
    throw abortedError(ctx, signal.reason);
  }
  throw errorFromResponse(response, text, {
    ...ctx,
    url: options.url,
    isContextLength: options.isContextLength,
    now: (options.clock ?? systemClock).now(),
  });
}

/**
 * Reads a successful response body as JSON. A body cut off by the network
 * throws `connection` (or `aborted` when `signal` fired); a body that is not
 * JSON throws `invalid_response`.
 */
export async function readJSONBody<T>(
  response: Response,
  signal: AbortSignal | undefined,
  ctx: { provider: string; model: string },
): Promise<T> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw signal?.aborted ? abortedError(ctx, signal.reason) : networkError(error, ctx);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    const id = `${ctx.provider}:${ctx.model}`;
    throw new ModelError('invalid_response', `${id}: reply is not JSON: ${text.slice(0, 200)}`, {
      model: id,
      body: text,
      cause: error,
    });
  }
}
