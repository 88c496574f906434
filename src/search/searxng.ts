/**
 * SearXNG, the self-hostable metasearch engine, through its JSON API
 * (`GET /search?q=…&format=json`; the instance must list `json` under
 * `search.formats` in its settings.yml).
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { SearchError } from './errors.js';
import { requestJson } from './http.js';
import { hitsOf } from './results.js';
import type { WebSearchHttpOptions, WebSearchProvider } from './types.js';

/** Options of {@link searxng}. */
export interface SearxngOptions extends WebSearchHttpOptions {
  /** The instance, e.g. `http://localhost:8080`. Default: the `SEARXNG_URL` environment variable. */
  baseUrl?: string;
  /** Comma-separated categories, e.g. `general,news`. Default the instance's. */
  categories?: string;
  /** Language code, e.g. `en`. Default the instance's. */
  language?: string;
  /** `day`, `month` or `year`. */
  timeRange?: 'day' | 'month' | 'year';
  /** 0 off, 1 moderate, 2 strict. */
  safeSearch?: 0 | 1 | 2;
}

/** Hits of a SearXNG instance (at most 10 unless `maxResults` says otherwise). */
export function searxng(options: SearxngOptions = {}): WebSearchProvider {
  const base = options.baseUrl ?? process.env.SEARXNG_URL;
  if (!base) {
    throw new ConfigError('searxng: no instance: pass `baseUrl` or set the SEARXNG_URL environment variable');
  }
  const root = new URL(base.endsWith('/') ? base : `${base}/`);
  return {
    id: `searxng:${root.host}`,
    search: async (query, call = {}) => {
      const url = new URL('search', root);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      if (options.categories) url.searchParams.set('categories', options.categories);
      if (options.language) url.searchParams.set('language', options.language);
      if (options.timeRange) url.searchParams.set('time_range', options.timeRange);
      if (options.safeSearch !== undefined) url.searchParams.set('safesearch', String(options.safeSearch));
      const shownUrl = url.toString();
      const init = { method: 'GET', headers: { accept: 'application/json', ...options.headers } };
      const body = await requestJson({ url: shownUrl, shownUrl, init, signal: call.signal }, options).catch(
        (error: unknown) => {
          // SearXNG answers 403 to format=json when the instance has not enabled it.
          if (error instanceof SearchError && error.status === 403) {
            throw new SearchError(
              'bad_request',
              `${shownUrl} answered 403: enable the json format (search.formats in the instance's settings.yml)`,
              { status: 403, cause: error },
            );
          }
          throw error;
        },
      );
      return hitsOf(body, { url: shownUrl, dateField: 'publishedDate' }).slice(0, call.maxResults ?? 10);
    },
  };
}
