/**
 * The typed error of a web search.
 * @module
 */
import { TandemError } from '../core/errors.js';

/**
 * Why a search failed: `auth` (key refused), `rate_limit`, `server` (5xx),
 * `bad_request` (another 4xx, e.g. SearXNG without the JSON format enabled),
 * `timeout`, `connection`, `invalid_response` (not the documented JSON).
 */
export type SearchErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'server'
  | 'bad_request'
  | 'timeout'
  | 'connection'
  | 'invalid_response';

/** A failed search; the message names the URL called. */
export class SearchError extends TandemError<SearchErrorKind> {
  static override readonly brand: string = 'SearchError';
  /** HTTP status, when the engine answered. */
  readonly status?: number;
  /** How long the engine asked to wait (`Retry-After`), when it did. */
  readonly retryAfterMs?: number;
  constructor(
    kind: SearchErrorKind,
    message: string,
    options: { cause?: unknown; status?: number; retryAfterMs?: number } = {},
  ) {
    super(kind, message, options);
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
