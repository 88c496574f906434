/**
 * `safeFetch`: a `fetch` for tools that refuses to reach private networks.
 * Every hop — the first URL and each redirect, followed by hand — is checked
 * with the guardrails' URL policy before it is sent, and every connection
 * goes through a DNS lookup that checks the addresses it connects to, so
 * neither a redirect nor a rebinding DNS answer can lead a request inside.
 * @module
 */
import { AbortError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';
import { inspectUrl, type UrlPolicy } from '../safety/guardrails/url-check.js';
import { SafeFetchError } from './errors.js';
import { type Reply, send } from './exchange.js';
import { guardedLookup, type Resolver, systemResolver } from './lookup.js';
import { type Hop, isRedirect, redirectedHop } from './redirect.js';

/** Default {@link SafeFetchOptions.maxRedirects}. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** Default {@link SafeFetchOptions.maxResponseBytes}: 10 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Default {@link SafeFetchOptions.timeoutMs}. */
export const DEFAULT_SAFE_FETCH_TIMEOUT_MS = 30_000;

/**
 * What a guarded fetch may reach, and its limits. The URL policy is the
 * guardrails' (`allowedSchemes`, `allowHosts`, `blockedHostSuffixes`); its
 * `resolve` is the resolver used at connect time.
 */
export interface SafeFetchOptions extends UrlPolicy {
  /** Resolves host names when connecting. Default: the system resolver (`dns.lookup`, all addresses). */
  resolve?: Resolver;
  /** Redirects followed before failing with `redirect`. Default {@link DEFAULT_MAX_REDIRECTS}. */
  maxRedirects?: number;
  /** Largest response body read; a larger one fails with `too_large`. Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
  /** Time for the whole call — every hop and the body. Default {@link DEFAULT_SAFE_FETCH_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Clock of the time limit. Default: the system clock. */
  clock?: Clock;
}

/** The part of `RequestInit` a guarded fetch takes. */
export interface SafeFetchInit {
  /** Default `GET`. */
  method?: string;
  headers?: HeadersInit;
  /** Sent as is; not allowed with GET or HEAD. */
  body?: string | Uint8Array | null;
  signal?: AbortSignal | null;
  /** `follow` (default) checks and follows; `manual` returns the redirect; `error` fails with `redirect`. */
  redirect?: 'follow' | 'error' | 'manual';
}

/** A guarded fetch: resolves with a standard `Response` whose body is already read. */
export type SafeFetch = (input: string | URL, init?: SafeFetchInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers fetch does not let a caller set: they would re-target a virtual host
// or change the framing of the request (smuggling). Node sets its own.
const FORBIDDEN_HEADERS = [
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
];

/**
 * A guarded fetch with these options.
 *
 * ```ts
 * const fetchPage = createSafeFetch({ maxResponseBytes: 2_000_000, timeoutMs: 10_000 });
 * const response = await fetchPage(args.url, { signal: ctx.signal });
 * ```
 * @throws SafeFetchError, or AbortError when `init.signal` aborts.
 */
export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch {
  return (input, init = {}) => guardedFetch(input, init, options);
}

/** A guarded fetch with the default options: public http(s) hosts, 5 redirects, 10 MiB, 30 s. */
export const safeFetch: SafeFetch = (input, init = {}) => guardedFetch(input, init, {});

async function guardedFetch(input: string | URL, init: SafeFetchInit, options: SafeFetchOptions) {
  if (init.signal?.aborted) throw new AbortError(init.signal.reason);
  const first = firstHop(input, init);
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_SAFE_FETCH_TIMEOUT_MS;
  const cancelTimer = (options.clock ?? systemClock).setTimer(timeoutMs, () =>
    controller.abort(
      new SafeFetchError('timeout', `Fetch took longer than ${timeoutMs} ms`, { url: first.url.href }),
    ),
  );
  const onAbort = () => controller.abort(new AbortError(init.signal?.reason));
  init.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await follow(first, init.redirect ?? 'follow', { options, signal: controller.signal });
  } finally {
    cancelTimer();
    init.signal?.removeEventListener('abort', onAbort);
  }
}

/** One guarded fetch under way: its options and the signal that ends it (caller abort or timeout). */
interface Fetching {
  options: SafeFetchOptions;
  signal: AbortSignal;
}

async function follow(
  first: Hop,
  mode: NonNullable<SafeFetchInit['redirect']>,
  { options, signal }: Fetching,
): Promise<Response> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    const reply = await sendChecked(hop, options, signal);
    const location = reply.headers.get('location');
    if (mode === 'manual' || !isRedirect(reply.status, location)) {
      const response = await toResponse(reply, hop, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
      Object.defineProperty(response, 'redirected', { value: redirects > 0 });
      return response;
    }
    reply.discard();
    if (mode === 'error' || redirects >= maxRedirects) {
      const why = mode === 'error' ? "redirect is 'error'" : `more than ${maxRedirects} redirects`;
      throw new SafeFetchError('redirect', `Redirect ${reply.status} not followed: ${why}`, {
        url: hop.url.href,
      });
    }
    hop = redirectedHop(hop, reply.status, location);
  }
}

/** Checks the hop's URL, then sends it through a lookup that checks the addresses. */
function sendChecked(hop: Hop, options: SafeFetchOptions, signal: AbortSignal): Promise<Reply> {
  const verdict = inspectUrl(hop.url.href, options);
  if (!verdict.ok) {
    throw new SafeFetchError('blocked', `Request blocked: ${verdict.reason}`, {
      url: hop.url.href,
      rule: verdict.rule,
    });
  }
  const lookup = guardedLookup({
    resolve: options.resolve ?? systemResolver,
    allowListed: verdict.allowListed === true,
    url: hop.url.href,
    signal,
  });
  return send(hop, lookup, signal);
}

/** The reply as a `Response` (its `redirected` is the caller's to set). */
async function toResponse(reply: Reply, hop: Hop, maxBytes: number): Promise<Response> {
  const empty = hop.method === 'HEAD' || NULL_BODY_STATUSES.has(reply.status);
  if (empty) reply.discard();
  const body = empty ? null : await reply.read(maxBytes);
  let response: Response;
  try {
    response = new Response(body, {
      status: reply.status,
      statusText: reply.statusText,
      headers: reply.headers,
    });
  } catch (error) {
    throw new SafeFetchError('invalid_response', `Invalid response (status ${reply.status})`, {
      url: hop.url.href,
      cause: error,
    });
  }
  const url = new URL(hop.url);
  url.hash = '';
  // A constructed Response has an empty url; tools read it to resolve relative links.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

/** The first request, checked for what fetch itself would refuse. */
function firstHop(input: string | URL, init: SafeFetchInit): Hop {
  const invalid = (reason: string, cause?: unknown) =>
    new SafeFetchError('invalid_request', `Invalid request: ${reason}`, { url: String(input), cause });
  let url: URL;
  try {
    url = new URL(String(input));
  } catch (error) {
    const verdict = inspectUrl(String(input));
    throw new SafeFetchError('blocked', `Request blocked: ${verdict.ok ? 'invalid URL' : verdict.reason}`, {
      url: String(input),
      rule: 'url.invalid',
      cause: error,
    });
  }
  if (url.username || url.password) throw invalid('the URL includes credentials');
  const raw = init.method ?? 'GET';
  const method = NORMALIZED_METHODS.has(raw.toUpperCase()) ? raw.toUpperCase() : raw;
  if (!METHOD_TOKEN.test(method) || FORBIDDEN_METHODS.has(method.toUpperCase()))
    throw invalid(`method "${raw}" is not allowed`);
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))
    throw invalid('the body must be a string or a Uint8Array');
  if (body !== undefined && (method === 'GET' || method === 'HEAD'))
    throw invalid(`a ${method} request has no body`);
  let headers: Headers;
  try {
    headers = new Headers(init.headers);
  } catch (error) {
    throw invalid('bad headers', error);
  }
  for (const name of FORBIDDEN_HEADERS) headers.delete(name);
  return { method, url, headers, body };
}
