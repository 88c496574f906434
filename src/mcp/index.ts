/**
 * MCP servers' tools as tandem tools (Node; optional peer dependency
 * `@modelcontextprotocol/sdk`).
 * @packageDocumentation
 */
export * from './connect.js';
export * from './content.js';
export * from './errors.js';
export * from './names.js';
export * from './schema.js';
export * from './tools.js';
