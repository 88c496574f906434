/**
 * Paginated MCP lists (`tools/list`, `resources/list`, `prompts/list`, …):
 * every page, following `nextCursor`, with one error identity.
 * @module
 */
import { McpToolError, mcpRequest } from './errors.js';

/** One page of a paginated list. */
export interface McpPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Fetches every page of `method`, in order. A server that hands out the same
 * cursor twice would page forever: that is an {@link McpToolError} of kind
 * `protocol` instead.
 * @throws AbortError when `signal` aborts; {@link McpToolError} for a JSON-RPC failure.
 */
export async function listAllPages<T>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<McpPage<T>>,
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await mcpRequest(undefined, signal, () => fetchPage(cursor));
    all.push(...page.items);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor))
        throw new McpToolError('protocol', undefined, `${method} repeated cursor "${cursor}"`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return all;
}

/** Options of one request to the server (listing or reading resources, prompts…). */
export interface McpRequestOptions {
  signal?: AbortSignal;
}

/** `{ signal }` for SDK request options, or nothing. */
export function signalOption(signal: AbortSignal | undefined): { signal: AbortSignal } | undefined {
  return signal ? { signal } : undefined;
}
