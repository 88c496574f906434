/**
 * Search results and the sources list of a research run: validation of what
 * a search returns, and deduplication by URL.
 * @module
 */
import { z } from 'zod/v4';

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

/** A source kept by the run; `n` is its citation number. */
export const sourceSchema = z.object({
  n: z.number().int().min(1),
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
});

/** A numbered source. */
export type Source = z.output<typeof sourceSchema>;

const hitSchema = z.object({
  title: z.string().default(''),
  url: z.string().trim().min(1),
  snippet: z.string().default(''),
});

/** The well-formed hits of whatever a search returned (arrays only; malformed items are skipped). */
export function validHits(value: unknown): SearchResult[] {
  if (!Array.isArray(value)) return [];
  const hits: SearchResult[] = [];
  for (const item of value) {
    const parsed = hitSchema.safeParse(item);
    if (parsed.success) hits.push({ ...parsed.data, title: parsed.data.title || parsed.data.url });
  }
  return hits;
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
