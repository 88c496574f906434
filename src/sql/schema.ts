/**
 * The SQL stores' schema and its versioned migrations, run on open inside
 * one transaction that first takes an advisory lock, so two processes
 * opening the same fresh database at once migrate it once.
 * @module
 */
import { SessionError } from '../state/session.js';
import type { SqlClient, SqlQueryable } from './client.js';

/** The schema version this package writes. A database at a newer one is refused. */
export const SQL_SCHEMA_VERSION = 1;

/** How embeddings are stored: pgvector's `vector` with HNSW indexes, or `float8[]` scanned in SQL. */
export type VectorMode = 'pgvector' | 'array';

/** The advisory lock key schema changes hold (a constant; "tandem" in ASCII). */
export const SCHEMA_LOCK = 0x74616e64656d;

/** Migration `i` takes the schema from version `i` to `i + 1`. */
const MIGRATIONS: ((tx: SqlQueryable, vectorMode: VectorMode) => Promise<void>)[] = [
  async (tx, vectorMode) => {
    const statements = [
      `CREATE TABLE tandem_threads (
        thread_id text PRIMARY KEY,
        resource_id text,
        last_seq bigint NOT NULL,
        updated_at double precision NOT NULL)`,
      'CREATE INDEX tandem_threads_resource ON tandem_threads (resource_id, updated_at DESC)',
      // The primary key is the (thread_id, seq) index that loads the last N.
      // `message` is text, not jsonb: rows are parsed by the store, which names a bad one.
      `CREATE TABLE tandem_messages (
        thread_id text NOT NULL REFERENCES tandem_threads ON DELETE CASCADE,
        seq bigint NOT NULL,
        message text NOT NULL,
        run_id text,
        created_at double precision NOT NULL,
        PRIMARY KEY (thread_id, seq))`,
      `CREATE TABLE tandem_summaries (
        thread_id text PRIMARY KEY REFERENCES tandem_threads ON DELETE CASCADE,
        text text NOT NULL,
        through_seq bigint NOT NULL,
        created_at double precision NOT NULL)`,
      `CREATE TABLE tandem_checkpoints (
        run_id text PRIMARY KEY,
        state text NOT NULL,
        revision double precision NOT NULL,
        updated_at double precision NOT NULL)`,
      `CREATE TABLE tandem_working_memory (
        resource_id text PRIMARY KEY,
        value text NOT NULL,
        version integer NOT NULL,
        updated_at double precision NOT NULL)`,
      // Dimensions vary by embedding model: pgvector's HNSW index needs one, so
      // each dimension gets its own partial index, made on its first upsert.
      `CREATE TABLE tandem_vectors (
        id text PRIMARY KEY,
        resource_id text NOT NULL,
        thread_id text NOT NULL,
        text text NOT NULL,
        created_at double precision NOT NULL,
        metadata text,
        dims integer NOT NULL,
        embedding ${vectorMode === 'pgvector' ? 'vector' : 'double precision[]'} NOT NULL)`,
      'CREATE INDEX tandem_vectors_resource ON tandem_vectors (resource_id)',
    ];
    for (const statement of statements) await tx.query(statement);
  },
];

/**
 * Brings the database to {@link SQL_SCHEMA_VERSION} and resolves how it stores vectors.
 * @throws SessionError `unsupported_version` when a newer package wrote it.
 */
export async function migrate(client: SqlClient): Promise<VectorMode> {
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS tandem_schema (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version integer NOT NULL,
      vector_mode text NOT NULL)`);
    const { rows } = await tx.query<{ version: number; vector_mode: VectorMode }>(
      'SELECT version, vector_mode FROM tandem_schema',
    );
    const version = rows[0]?.version ?? 0;
    if (version > SQL_SCHEMA_VERSION) {
      throw new SessionError(
        'unsupported_version',
        `Database ${client.name} has tandem schema version ${version}; this version of tandem-agents reads up to ${SQL_SCHEMA_VERSION}. Upgrade tandem-agents.`,
      );
    }
    const vectorMode = rows[0]?.vector_mode ?? (await enablePgvector(tx));
    for (let v = version; v < SQL_SCHEMA_VERSION; v++) await MIGRATIONS[v]!(tx, vectorMode);
    await tx.query(
      `INSERT INTO tandem_schema (version, vector_mode) VALUES ($1, $2)
       ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version`,
      [SQL_SCHEMA_VERSION, vectorMode],
    );
    return vectorMode;
  });
}

/**
 * Creates the `vector` extension when the server has it. A savepoint keeps
 * a refusal (no privilege) from aborting the migration: vectors are then
 * stored as arrays.
 */
async function enablePgvector(tx: SqlQueryable): Promise<VectorMode> {
  const { rows } = await tx.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (rows.length === 0) return 'array';
  await tx.query('SAVEPOINT tandem_pgvector');
  try {
    await tx.query('CREATE EXTENSION IF NOT EXISTS vector');
    await tx.query('RELEASE SAVEPOINT tandem_pgvector');
    return 'pgvector';
  } catch {
    await tx.query('ROLLBACK TO SAVEPOINT tandem_pgvector');
    return 'array';
  }
}
