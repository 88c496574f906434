/**
 * Search results and the sources list of a research run: validation of what
 * a search returns, and deduplication by URL.
 * @module
 */
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import { isRecord } from '../../model/records.js';
import { researchZod } from './schemas.js';

/** One search hit. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A pluggable web search: `query` → hits. */
export type SearchFunction = (
  query: string,
  options: { signal: AbortSignal },
) => Promise<readonly SearchResult[]> | readonly SearchResult[];

/** A numbered source. */
export interface Source {
  /** Its citation number, from 1. */
  n: number;
  title: string;
  url: string;
  snippet: string;
}

/** A source kept by the run; `n` is its citation number. */
export const sourceSchema: LazySchema<Source> = lazySchema((z) => researchZod.with(z).source);

/**
 * The well-formed hits of whatever a search returned (arrays only; malformed
 * items are skipped): a non-blank `url` (trimmed), string `title` and
 * `snippet` when given; a missing title is the URL.
 */
export function validHits(value: unknown): SearchResult[] {
  if (!Array.isArray(value)) return [];
  const hits: SearchResult[] = [];
  for (const item of value) {
    const hit = validHit(item);
    if (hit) hits.push(hit);
  }
  return hits;
}

function validHit(item: unknown): SearchResult | undefined {
  if (!isRecord(item)) return undefined;
  const { title = '', url, snippet = '' } = item;
  if (typeof title !== 'string' || typeof url !== 'string' || typeof snippet !== 'string') return undefined;
  const trimmed = url.trim();
  return trimmed ? { title: title || trimmed, url: trimmed, snippet } : undefined;
}

/**
 * The key two URLs of the same page share: lower-case scheme and host,
 * without `www.`, the fragment, a trailing slash and tracking parameters.
 */
export function urlKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return url.trim().toLowerCase();
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (/^(utm_\w+|fbclid|gclid|ref)$/i.test(name)) parsed.searchParams.delete(name);
  }
  const host = parsed.host.toLowerCase().replace(/^www\./, '');
  const path = parsed.pathname.replace(/\/+$/, '');
  const query = parsed.searchParams.toString();
  return `${parsed.protocol.replace('http:', 'https:')}//${host}${path}${query ? `?${query}` : ''}`;
}

/** Sources numbered from 1 in the order found, one per page. */
export class SourceList {
  private readonly byKey = new Map<string, Source>();

  constructor(private readonly max: number) {}

  /** Adds `hit` unless its page is already listed or the list is full; returns the new source. */
  add(hit: SearchResult): Source | undefined {
    if (this.full) return undefined;
    const key = urlKey(hit.url);
    if (this.byKey.has(key)) return undefined;
    const source: Source = { n: this.byKey.size + 1, title: hit.title, url: hit.url, snippet: hit.snippet };
    this.byKey.set(key, source);
    return source;
  }

  get full(): boolean {
    return this.byKey.size >= this.max;
  }

  get size(): number {
    return this.byKey.size;
  }

  list(): Source[] {
    return [...this.byKey.values()];
  }
}

/** Sources as numbered lines for a prompt: `[n] title — url\n    snippet`. */
export function formatSources(sources: readonly Source[], snippetChars = 300): string {
  return sources
    .map(
      (s) => `[${s.n}] ${s.title} — ${s.url}${s.snippet ? `\n    ${s.snippet.slice(0, snippetChars)}` : ''}`,
    )
    .join('\n');
}
