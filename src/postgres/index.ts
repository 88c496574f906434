/**
 * The Postgres SQL store (optional peer dependency `pg`): sessions, run
 * checkpoints, working memory and vectors on a Postgres server, for apps
 * that outgrow one machine. Vectors use pgvector when the server has the
 * extension, else float8 arrays. Same schema and dialect as
 * `tandem-agents/pglite`.
 * @packageDocumentation
 */
import pg from 'pg';
import { ConfigError } from '../core/errors.js';
import type { SqlClient, SqlQueryable } from '../sql/client.js';
import { openSqlStore, type SqlStore } from '../sql/sql-store.js';

export * from '../sql/index.js';

/** Options of {@link openPostgresStore}: a pool you own, or a connection string the store opens (and closes) a pool for. */
export type PostgresStoreOptions =
  | { pool: pg.Pool; connectionString?: never }
  | { connectionString: string; pool?: never; max?: number };

/**
 * Opens the store and migrates the schema.
 * @throws SessionError `unavailable` when the server cannot be reached,
 *   `unsupported_version` for a database a newer tandem-agents wrote.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<SqlStore> {
  if (!options.pool && !options.connectionString) {
    throw new ConfigError('openPostgresStore: pass a pg Pool (pool) or a connectionString');
  }
  const owned = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.max,
      connectionTimeoutMillis: 10_000,
    });
  // An idle client whose server went away emits 'error' on the pool; unheard, it would end the process.
  if (owned) pool.on('error', () => {});
  try {
    return await openSqlStore(postgresClient(pool, { owned }));
  } catch (error) {
    if (owned) await pool.end();
    throw error;
  }
}

/** A {@link SqlClient} on a `pg` pool; `owned`: closing the client ends the pool. */
export function postgresClient(pool: pg.Pool, options: { owned?: boolean } = {}): SqlClient {
  return {
    name: `postgres ${serverOf(pool.options)}`,
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await pool.query(text, params as unknown[] | undefined);
      return { rows: result.rows as R[] };
    },
    transaction: async (work) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A connection lost mid-transaction emits 'error' on the checked-out client; unheard, it would end the process.
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const tx: SqlQueryable = {
          query: async <R>(text: string, params?: readonly unknown[]) => {
            const result = await client.query(text, params as unknown[] | undefined);
            return { rows: result.rows as R[] };
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that broke or could not roll back is dropped, not reused.
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: async () => {
      if (options.owned && !pool.ended) await pool.end();
    },
  };
}

/** `host:port` of the pool's server, for error messages: its options, else its connection string's. */
function serverOf(options: pg.PoolConfig): string {
  let { host, port } = options;
  if (options.connectionString) {
    try {
      const url = new URL(options.connectionString);
      host ??= decodeURIComponent(url.hostname) || undefined;
      port ??= url.port ? Number(url.port) : undefined;
    } catch {
      // Not a URL (a libpq key=value string): the defaults below name the server.
    }
  }
  return `${host ?? 'localhost'}:${port ?? 5432}`;
}
