/**
 * The seam between the SQL stores and a database driver: a query and a
 * transaction, in the Postgres dialect. The PGlite and `pg` adapters
 * implement it; any other Postgres driver can too.
 * @module
 */
import { TandemError } from '../core/errors.js';
import { CheckpointError } from '../state/checkpoint-store.js';
import { SessionError } from '../state/session.js';

/** Runs one statement with `$1…` parameters. */
export interface SqlQueryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
}

/** A database connection (or pool) the SQL stores run on. */
export interface SqlClient extends SqlQueryable {
  /** Names the database in error messages: `postgres <host>:<port>`, `pglite <dir>`. */
  readonly name: string;
  /**
   * Runs `work` in one transaction on one connection: committed when it
   * resolves, rolled back when it throws (the error is rethrown).
   */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Releases what the adapter opened (not a pool or database the caller passed in). */
  close(): Promise<void>;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a session or memory operation; a driver error (connection refused or
 * lost, database closed) becomes `SessionError` `unavailable` naming the
 * database. The operation ran in one transaction, so nothing of it was written.
 */
export async function sessionOp<T>(client: SqlClient, what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof TandemError) throw error;
    throw new SessionError(
      'unavailable',
      `Session store ${client.name} could not ${what}: ${reason(error)}`,
      {
        cause: error,
      },
    );
  }
}

/** As {@link sessionOp}, for checkpoints: a driver error becomes `CheckpointError` `io`. */
export async function checkpointOp<T>(
  client: SqlClient,
  what: string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof TandemError) throw error;
    throw new CheckpointError('io', `Checkpoint store ${client.name} could not ${what}: ${reason(error)}`, {
      cause: error,
    });
  }
}
