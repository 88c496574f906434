/**
 * `tandem-agents/search`: web search providers — SearXNG (self-hosted) and
 * Tavily (hosted) — and the `web_search` tool over any of them.
 * @module
 */
export * from './errors.js';
export { type SearxngOptions, searxng } from './searxng.js';
export { type TavilyOptions, tavily } from './tavily.js';
export { type WebSearchToolOptions, webSearchTool } from './tool.js';
export type {
  WebSearchCallOptions,
  WebSearchHttpOptions,
  WebSearchProvider,
  WebSearchResult,
} from './types.js';
