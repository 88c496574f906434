/**
 * Tavily, a hosted search API made for agents (`POST /search`, a bearer key;
 * results carry extracted page content).
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { requestJson } from './http.js';
import { hitsOf } from './results.js';
import type { WebSearchHttpOptions, WebSearchProvider } from './types.js';

/** Options of {@link tavily}. */
export interface TavilyOptions extends WebSearchHttpOptions {
  /** Default: the `TAVILY_API_KEY` environment variable, read per search. */
  apiKey?: string;
  /** Default `https://api.tavily.com`. */
  baseUrl?: string;
  /** `basic` (default) or `advanced` (slower, costs two credits). */
  searchDepth?: 'basic' | 'advanced';
  /** `general` (default) or `news`. */
  topic?: 'general' | 'news';
}

/** Hits of Tavily's search API (at most 5 unless `maxResults` says otherwise). */
export function tavily(options: TavilyOptions = {}): WebSearchProvider {
  const root = new URL(options.baseUrl ?? 'https://api.tavily.com');
  const url = new URL('search', root.href.endsWith('/') ? root : `${root.href}/`).toString();
  return {
    id: 'tavily',
    search: async (query, call = {}) => {
      // Checked per search, before the request: a provider may be made before the key is set.
      const key = options.apiKey ?? process.env.TAVILY_API_KEY;
      if (!key) {
        throw new ConfigError(
          'tavily: no API key: pass `apiKey` or set the TAVILY_API_KEY environment variable',
        );
      }
      const body = JSON.stringify({
        query,
        max_results: call.maxResults ?? 5,
        search_depth: options.searchDepth ?? 'basic',
        topic: options.topic ?? 'general',
      });
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        ...options.headers,
      };
      const answer = await requestJson(
        { url, shownUrl: url, init: { method: 'POST', headers, body }, signal: call.signal },
        options,
      );
      return hitsOf(answer, { url, dateField: 'published_date' });
    },
  };
}
