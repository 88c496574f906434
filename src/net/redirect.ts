/**
 * One HTTP request of a guarded fetch, and the request a redirect turns it
 * into, following the Fetch standard's HTTP-redirect fetch: 301/302 turn a
 * POST into a GET, 303 turns anything but GET/HEAD into a GET (both drop the
 * body and its headers), 307/308 keep method and body; credentials are not
 * carried to another origin.
 * @module
 */
import { SafeFetchError } from './errors.js';

/** One request of a fetch: the first, or one a redirect led to. */
export interface Hop {
  method: string;
  url: URL;
  headers: Headers;
  body: string | Uint8Array | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** True for a status that redirects when it comes with a `Location`. */
export function isRedirect(status: number, location: string | null): location is string {
  return REDIRECT_STATUSES.has(status) && location !== null;
}

/**
 * The request a redirect answer asks for. The new URL is not checked here:
 * the caller checks every hop before sending it.
 */
export function redirectedHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch (error) {
    throw new SafeFetchError('redirect', `Redirect to an invalid location "${location}"`, {
      url: hop.url.href,
      cause: error,
    });
  }
  if (!url.hash && hop.url.hash) url.hash = hop.url.hash;
  const headers = new Headers(hop.headers);
  const toGet =
    (status === 303 && hop.method !== 'GET' && hop.method !== 'HEAD') ||
    ((status === 301 || status === 302) && hop.method === 'POST');
  if (toGet) for (const name of BODY_HEADERS) headers.delete(name);
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return {
    method: toGet ? 'GET' : hop.method,
    url,
    headers,
    body: toGet ? undefined : hop.body,
  };
}
