/**
 * The web search seam: a query in, ranked hits out. A provider's `search` is
 * a plain function, so it plugs into the research skill
 * (`webResearchSkills({ search: provider.search })`) as well as the
 * `web_search` tool.
 * @module
 */
import type { Clock } from '../core/seams.js';

/** One hit. */
export interface WebSearchResult {
  title: string;
  url: string;
  /** What the engine shows under the title (or the extracted content). */
  snippet: string;
  /** ISO date when the engine gives one. */
  publishedAt?: string;
}

/** Options of one search. */
export interface WebSearchCallOptions {
  signal?: AbortSignal;
  /** Hits wanted; providers return at most this many. */
  maxResults?: number;
}

/** A web search engine. */
export interface WebSearchProvider {
  /** `searxng:<host>`, `tavily`. */
  readonly id: string;
  /** Hits for `query`, best first. Bound: may be passed around alone. */
  readonly search: (query: string, options?: WebSearchCallOptions) => Promise<WebSearchResult[]>;
}

/** HTTP settings every provider takes. */
export interface WebSearchHttpOptions {
  /** Deadline of one request. Default 15 000 ms. */
  timeoutMs?: number;
  /** Retries of a 429 or 5xx answer or a dropped connection, after `Retry-After` or a backoff. Default 2. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The fetch to use. Default the global one. */
  fetch?: typeof fetch;
  /** Timers of the deadline and the backoff (tests pass a fake). Default the system clock. */
  clock?: Clock;
}
