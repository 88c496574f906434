/**
 * `tandem-agents/net`: network access for tools that closes what an argument
 * scan cannot see — redirects, and the address a name resolves to when the
 * connection is made. Node only (`node:http`, `node:https`, `node:dns`).
 *
 * ```ts
 * import { safeFetch } from 'tandem-agents/net';
 *
 * const fetchUrl = defineTool({
 *   name: 'fetch_url',
 *   parameters: z.object({ url: z.string() }),
 *   execute: async ({ url }, ctx) => (await safeFetch(url, { signal: ctx.signal })).text(),
 * });
 * ```
 * @module
 */
export * from './errors.js';
export { type Resolver, systemResolver } from './lookup.js';
export * from './safe-fetch.js';
