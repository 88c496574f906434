/**
 * Run checkpoints in the SQL stores' `tandem_checkpoints` table, next to
 * the sessions, so an app keeps one database for both.
 * @module
 */
import {
  assertRunId,
  type CheckpointStore,
  checkpointRevision,
  decodeCheckpoint,
  encodeCheckpoint,
} from '../state/checkpoint-store.js';
import { checkpointOp, type SqlClient } from './client.js';

/**
 * A {@link CheckpointStore} on a {@link SqlClient}. Each state is stored
 * with its revision in a column, so `saveIf` is one conditional upsert that
 * the database runs atomically.
 */
export class SqlCheckpointStore<S = unknown> implements CheckpointStore<S> {
  constructor(private readonly client: SqlClient) {}

  async save(runId: string, state: S): Promise<void> {
    assertRunId(runId);
    const text = encodeCheckpoint(runId, state);
    await checkpointOp(this.client, `save run ${runId}`, () =>
      this.client.query(
        `INSERT INTO tandem_checkpoints (run_id, state, revision, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (run_id) DO UPDATE SET state = EXCLUDED.state, revision = EXCLUDED.revision,
           updated_at = EXCLUDED.updated_at`,
        [runId, text, checkpointRevision(state), Date.now()],
      ),
    );
  }

  /** Inserts, or updates only a row at revision `expected`: the row lock makes two racing calls take turns. */
  async saveIf(runId: string, state: S, expected: number): Promise<boolean> {
    assertRunId(runId);
    const text = encodeCheckpoint(runId, state);
    const { rows } = await checkpointOp(this.client, `save run ${runId} at revision ${expected}`, () =>
      this.client.query(
        `INSERT INTO tandem_checkpoints (run_id, state, revision, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (run_id) DO UPDATE SET state = EXCLUDED.state, revision = EXCLUDED.revision,
           updated_at = EXCLUDED.updated_at
         WHERE tandem_checkpoints.revision = $5
         RETURNING run_id`,
        [runId, text, checkpointRevision(state), Date.now(), expected],
      ),
    );
    return rows.length === 1;
  }

  async load(runId: string): Promise<S | undefined> {
    assertRunId(runId);
    const { rows } = await checkpointOp(this.client, `load run ${runId}`, () =>
      this.client.query<{ state: string }>('SELECT state FROM tandem_checkpoints WHERE run_id = $1', [runId]),
    );
    return rows[0] === undefined ? undefined : decodeCheckpoint<S>(runId, rows[0].state);
  }

  async list(): Promise<string[]> {
    const { rows } = await checkpointOp(this.client, 'list checkpoints', () =>
      this.client.query<{ run_id: string }>('SELECT run_id FROM tandem_checkpoints'),
    );
    return rows.map((row) => row.run_id);
  }

  async delete(runId: string): Promise<boolean> {
    assertRunId(runId);
    const { rows } = await checkpointOp(this.client, `delete run ${runId}`, () =>
      this.client.query('DELETE FROM tandem_checkpoints WHERE run_id = $1 RETURNING run_id', [runId]),
    );
    return rows.length === 1;
  }
}
