/**
 * The embedded SQL store (optional peer dependencies `@electric-sql/pglite`
 * and `@electric-sql/pglite-pgvector`): Postgres compiled to WebAssembly,
 * in memory or in a data directory, with pgvector. Same schema and dialect
 * as `tandem-agents/postgres`.
 * @packageDocumentation
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { SqlClient, SqlQueryable } from '../sql/client.js';
import { openSqlStore, type SqlStore } from '../sql/sql-store.js';

export * from '../sql/index.js';

/** Options of {@link openPgliteStore}. */
export interface PgliteStoreOptions {
  /**
   * Directory of the database on disk, created when missing. Default: in
   * memory, gone when the process ends. One process at a time may open a
   * directory: PGlite is a single-connection, in-process database.
   */
  dataDir?: string;
  /** A database you opened (with the `vector` extension, for pgvector recall); the store does not close it. */
  db?: PGlite;
}

/**
 * Opens (creating and migrating when needed) the embedded store.
 * @throws SessionError `unsupported_version` for a data directory a newer tandem-agents wrote.
 */
export async function openPgliteStore(options: PgliteStoreOptions = {}): Promise<SqlStore> {
  const owned = options.db === undefined;
  const db = options.db ?? (await PGlite.create(options.dataDir, { extensions: { vector } }));
  try {
    return await openSqlStore(
      pgliteClient(db, { name: `pglite ${options.dataDir ?? db.dataDir ?? 'memory'}`, owned }),
    );
  } catch (error) {
    if (owned) await db.close();
    throw error;
  }
}

/** A {@link SqlClient} on a PGlite database; `owned`: closing the client closes the database. */
export function pgliteClient(db: PGlite, options: { name?: string; owned?: boolean } = {}): SqlClient {
  const asQueryable = (q: Pick<PGlite, 'query'>): SqlQueryable => ({
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await q.query<R>(text, params as unknown[] | undefined);
      return { rows: result.rows };
    },
  });
  return {
    name: options.name ?? `pglite ${db.dataDir ?? 'memory'}`,
    ...asQueryable(db),
    transaction: (work) => db.transaction((tx) => work(asQueryable(tx))),
    close: async () => {
      if (options.owned && !db.closed) await db.close();
    },
  };
}
