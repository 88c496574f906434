/**
 * The SQL stores' shared implementation, used by `tandem-agents/pglite` and
 * `tandem-agents/postgres` (which re-export it).
 * @module
 */
export type { SqlClient, SqlQueryable } from './client.js';
export { SQL_SCHEMA_VERSION, type VectorMode } from './schema.js';
export * from './sql-checkpoint-store.js';
export * from './sql-memory-store.js';
export * from './sql-session.js';
export * from './sql-store.js';
