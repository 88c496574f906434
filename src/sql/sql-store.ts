/**
 * `SqlStore`: sessions, run checkpoints, working memory and vectors in one
 * Postgres-dialect database, over a {@link SqlClient}. `tandem-agents/pglite`
 * opens one embedded, `tandem-agents/postgres` on a server.
 * @module
 */
import { checkSessionId, type SessionStore } from '../state/session.js';
import { type SqlClient, sessionOp } from './client.js';
import { migrate, type VectorMode } from './schema.js';
import { SqlCheckpointStore } from './sql-checkpoint-store.js';
import { SqlVectorStore, SqlWorkingMemoryStore } from './sql-memory-store.js';
import { SqlSession } from './sql-session.js';

/**
 * One database for a host app's conversations and runs. The store itself
 * is the {@link SessionStore}; run checkpoints, working memory and vectors
 * are its facets, since their methods share names. Open it with
 * {@link openSqlStore} (or `openPgliteStore` / `openPostgresStore`).
 */
export class SqlStore implements SessionStore {
  /** Run checkpoints (`RunState`), with an atomic `saveIf`. */
  readonly checkpoints: SqlCheckpointStore;
  /** Working memory per resource. */
  readonly workingMemory: SqlWorkingMemoryStore;
  /** Embeddings for semantic recall. */
  readonly vectors: SqlVectorStore;

  /** Use {@link openSqlStore}: it runs the migrations first. */
  constructor(
    /** The database, as a query and transaction seam. */
    readonly client: SqlClient,
    /** How this database stores vectors: pgvector with HNSW indexes, or float8 arrays scanned exactly. */
    readonly vectorMode: VectorMode,
  ) {
    this.checkpoints = new SqlCheckpointStore(client);
    this.workingMemory = new SqlWorkingMemoryStore(client);
    this.vectors = new SqlVectorStore(client, vectorMode);
  }

  /** @throws SessionError `invalid_id` for an empty, over-long or control-character id. */
  session(threadId: string, options: { resourceId?: string } = {}): SqlSession {
    checkSessionId(threadId, 'thread');
    if (options.resourceId !== undefined) checkSessionId(options.resourceId, 'resource');
    return new SqlSession(this.client, threadId, options.resourceId);
  }

  async threads(resourceId: string): Promise<string[]> {
    checkSessionId(resourceId, 'resource');
    const { rows } = await sessionOp(this.client, `list the threads of ${resourceId}`, () =>
      this.client.query<{ thread_id: string }>(
        'SELECT thread_id FROM tandem_threads WHERE resource_id = $1 ORDER BY updated_at DESC, thread_id',
        [resourceId],
      ),
    );
    return rows.map((row) => row.thread_id);
  }

  /**
   * Removes a user's data from every table, in one transaction: threads
   * (their items and summaries cascade), working memory and vectors. Run
   * checkpoints are keyed by run, not user, and stay.
   */
  async deleteResource(resourceId: string): Promise<void> {
    checkSessionId(resourceId, 'resource');
    await sessionOp(this.client, `delete the data of ${resourceId}`, () =>
      this.client.transaction(async (tx) => {
        await tx.query('DELETE FROM tandem_threads WHERE resource_id = $1', [resourceId]);
        await tx.query('DELETE FROM tandem_working_memory WHERE resource_id = $1', [resourceId]);
        await tx.query('DELETE FROM tandem_vectors WHERE resource_id = $1', [resourceId]);
      }),
    );
  }

  /** Closes what the store opened (an embedded database, a pool made from a URL). */
  close(): Promise<void> {
    return this.client.close();
  }
}

/**
 * Opens a store on any Postgres-dialect client: runs the schema migrations
 * (under an advisory lock, in one transaction) and resolves the store.
 * @throws SessionError `unsupported_version` for a database a newer
 *   tandem-agents wrote, `unavailable` when the database cannot be reached.
 */
export async function openSqlStore(client: SqlClient): Promise<SqlStore> {
  const vectorMode = await sessionOp(client, 'open (migrate the schema)', () => migrate(client));
  return new SqlStore(client, vectorMode);
}
