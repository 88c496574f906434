/**
 * One JSON request of a search provider: a deadline, the caller's abort,
 * retries of what a retry can fix, and typed errors that name the URL.
 * @module
 */
import { AbortError } from '../core/errors.js';
import { type Clock, sleep, systemClock } from '../core/seams.js';
import { SearchError } from './errors.js';
import type { WebSearchHttpOptions } from './types.js';

/** What one call sends. */
export interface JsonRequest {
  url: string;
  /** URL as shown in errors: without a key in its query. */
  shownUrl: string;
  init: RequestInit;
  signal?: AbortSignal;
}

const RETRY_BASE_MS = 500;

/** The parsed JSON body of a 2xx answer, after up to `maxRetries` retries. */
export async function requestJson(request: JsonRequest, options: WebSearchHttpOptions): Promise<unknown> {
  const clock = options.clock ?? systemClock;
  const maxRetries = options.maxRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(request, options, clock);
    } catch (error) {
      const retryable =
        error instanceof SearchError && ['rate_limit', 'server', 'connection'].includes(error.kind);
      if (!retryable || attempt >= maxRetries || request.signal?.aborted) throw error;
      await sleep(clock, error.retryAfterMs ?? RETRY_BASE_MS * 2 ** attempt, request.signal);
    }
  }
}

async function attemptOnce(
  request: JsonRequest,
  options: WebSearchHttpOptions,
  clock: Clock,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  if (request.signal?.aborted) throw new AbortError(`Search aborted before calling ${request.shownUrl}`);
  request.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const cancel = clock.setTimer(timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  try {
    const response = await (options.fetch ?? fetch)(request.url, {
      ...request.init,
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) throw statusError(request.shownUrl, response, text);
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new SearchError('invalid_response', `${request.shownUrl} answered with text that is not JSON`, {
        cause,
      });
    }
  } catch (error) {
    if (error instanceof SearchError) throw error;
    if (request.signal?.aborted) throw new AbortError(`Search aborted while calling ${request.shownUrl}`);
    if (timedOut)
      throw new SearchError('timeout', `${request.shownUrl} did not answer within ${timeoutMs} ms`);
    throw new SearchError('connection', `Could not reach ${request.shownUrl}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    cancel();
    request.signal?.removeEventListener('abort', onAbort);
  }
}

function statusError(url: string, response: Response, body: string): SearchError {
  const status = response.status;
  const detail = body.slice(0, 200).replace(/\s+/g, ' ').trim();
  const message = `${url} answered ${status}${detail ? `: ${detail}` : ''}`;
  const kind =
    status === 401 || status === 403
      ? 'auth'
      : status === 429
        ? 'rate_limit'
        : status >= 500
          ? 'server'
          : 'bad_request';
  const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
  const retryAfterMs =
    Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : undefined;
  return new SearchError(kind, message, { status, retryAfterMs });
}
