/**
 * The typed error `safeFetch` fails with.
 * @module
 */
import { TandemError } from '../core/errors.js';

/**
 * Why a guarded fetch failed:
 * - `blocked`: a URL (the first or a redirect's) or an address a name resolved to at connect time is not allowed — `rule` says which check (`url.private_address`, `url.resolves_private`, `url.scheme` …);
 * - `redirect`: more redirects than allowed, an invalid `Location`, or any redirect with `redirect: 'error'`;
 * - `too_large`: the response body is over `maxResponseBytes`;
 * - `timeout`: the whole exchange, redirects and body included, took longer than `timeoutMs`;
 * - `connection`: the connection failed or closed early (see `cause`);
 * - `invalid_request`: the request cannot be sent (a body on GET, credentials in the URL, an unsupported body type);
 * - `invalid_response`: the server's answer is not a valid HTTP response (a status outside 200–599, bad headers).
 *
 * A cancelled call rejects with the core's `AbortError` instead.
 */
export type SafeFetchErrorKind =
  | 'blocked'
  | 'redirect'
  | 'too_large'
  | 'timeout'
  | 'connection'
  | 'invalid_request'
  | 'invalid_response';

/** A failed guarded fetch. Switch on `kind`. */
export class SafeFetchError extends TandemError<SafeFetchErrorKind> {
  static override readonly brand: string = 'SafeFetchError';

  /** The URL of the hop that failed. */
  readonly url?: string;
  /** For `blocked`: the URL check's rule, e.g. `url.resolves_private`. */
  readonly rule?: string;
  constructor(
    kind: SafeFetchErrorKind,
    message: string,
    options: { url?: string; rule?: string; cause?: unknown } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.url = options.url;
    this.rule = options.rule;
  }
}
