/**
 * The `web_search` tool over any {@link WebSearchProvider}.
 * @module
 */
import { z } from 'zod/v4';
import { defineTool, type Tool } from '../tools/types.js';
import type { WebSearchProvider, WebSearchResult } from './types.js';

/** Options of {@link webSearchTool}. */
export interface WebSearchToolOptions {
  /** Most hits the model may ask for. Default 10. */
  maxResults?: number;
  /** Longest snippet shown per hit. Default 500 characters. */
  maxSnippetChars?: number;
}

/**
 * `web_search`: the model sends a query and gets numbered hits (title, URL,
 * snippet, date). Safe and parallel: it reads only the engine's answer.
 */
export function webSearchTool(provider: WebSearchProvider, options: WebSearchToolOptions = {}): Tool {
  const cap = options.maxResults ?? 10;
  const snippetChars = options.maxSnippetChars ?? 500;
  return defineTool({
    name: 'web_search',
    description:
      'Search the web. Returns numbered results with title, URL and a snippet; open a result with a fetch or browser tool to read it.',
    parameters: z.object({
      query: z.string().min(1).describe('What to search for, as you would type it into a search engine'),
      max_results: z
        .number()
        .int()
        .min(1)
        .max(cap)
        .optional()
        .describe(`How many results; default ${Math.min(5, cap)}`),
    }),
    parallelSafe: true,
    execute: async ({ query, max_results }, ctx) => {
      const hits = await provider.search(query, {
        signal: ctx.signal,
        maxResults: max_results ?? Math.min(5, cap),
      });
      return hits.length === 0 ? `No results for "${query}".` : format(hits, snippetChars);
    },
  });
}

function format(hits: WebSearchResult[], snippetChars: number): string {
  return hits
    .map((hit, i) => {
      const snippet =
        hit.snippet.length > snippetChars ? `${hit.snippet.slice(0, snippetChars)}…` : hit.snippet;
      const date = hit.publishedAt ? ` (${hit.publishedAt})` : '';
      return `${i + 1}. ${hit.title}${date}\n   ${hit.url}${snippet ? `\n   ${snippet}` : ''}`;
    })
    .join('\n');
}
