/**
 * MCP servers' tools, resources and prompts for tandem, and sampling through
 * a tandem model (Node; optional peer dependency `@modelcontextprotocol/sdk`).
 * @packageDocumentation
 */
export * from './connect.js';
export * from './content.js';
export * from './errors.js';
export * from './limits.js';
export * from './names.js';
export type { McpRequestOptions } from './pages.js';
export * from './parts.js';
export * from './prompts.js';
export * from './resources.js';
export * from './sampling.js';
export * from './schema.js';
export * from './tools.js';
