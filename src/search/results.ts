/**
 * Reading the `results` array both documented wire formats share: `url`,
 * `title`, `content`, and a date under an engine-specific name.
 * @module
 */
import { SearchError } from './errors.js';
import type { WebSearchResult } from './types.js';

/**
 * The hits of an engine's answer; items without a URL are skipped, a missing
 * title is the URL.
 * @throws SearchError (`invalid_response`) naming `url` when there is no results array.
 */
export function hitsOf(body: unknown, source: { url: string; dateField: string }): WebSearchResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) {
    throw new SearchError('invalid_response', `${source.url} answered JSON without a results array`);
  }
  const hits: WebSearchResult[] = [];
  for (const item of results as Array<Record<string, unknown> | null>) {
    if (typeof item?.url !== 'string' || item.url === '') continue;
    const hit: WebSearchResult = {
      title: typeof item.title === 'string' && item.title ? item.title : item.url,
      url: item.url,
      snippet: typeof item.content === 'string' ? item.content : '',
    };
    const date = item[source.dateField];
    if (typeof date === 'string') hit.publishedAt = date;
    hits.push(hit);
  }
  return hits;
}
