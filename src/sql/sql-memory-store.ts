/**
 * Long-term memory in the SQL stores: working memory per resource, and
 * embeddings searched by cosine similarity — with pgvector's HNSW index
 * when the database has the extension (PGlite ships it), else as
 * `float8[]` columns scored by an exact scan of the resource's rows in SQL.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type {
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorStore,
  WorkingMemoryRecord,
  WorkingMemoryStore,
} from '../state/memory-store.js';
import { checkSessionId, SessionError } from '../state/session.js';
import { type SqlClient, sessionOp } from './client.js';
import { SCHEMA_LOCK, type VectorMode } from './schema.js';

/** A {@link WorkingMemoryStore} on a {@link SqlClient}: one JSON row per resource, versioned for conditional writes. */
export class SqlWorkingMemoryStore implements WorkingMemoryStore {
  constructor(private readonly client: SqlClient) {}

  async get(resourceId: string): Promise<WorkingMemoryRecord | undefined> {
    checkSessionId(resourceId, 'resource');
    const { rows } = await sessionOp(this.client, `read the working memory of ${resourceId}`, () =>
      this.client.query<{ value: string; version: number; updated_at: number }>(
        'SELECT value, version, updated_at FROM tandem_working_memory WHERE resource_id = $1',
        [resourceId],
      ),
    );
    const row = rows[0];
    if (!row) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch (error) {
      throw new SessionError('corrupt', `Working memory of ${resourceId} is not valid JSON`, {
        cause: error,
      });
    }
    return { value, version: Number(row.version), updatedAt: Number(row.updated_at) };
  }

  /** Without `expectedVersion` an upsert; with it, an insert (0) or an update of that version only. */
  async set(
    resourceId: string,
    value: unknown,
    options: { expectedVersion?: number; now?: number } = {},
  ): Promise<boolean> {
    checkSessionId(resourceId, 'resource');
    const params = [resourceId, JSON.stringify(value ?? null), options.now ?? Date.now()];
    const expected = options.expectedVersion;
    const text =
      expected === undefined
        ? `INSERT INTO tandem_working_memory (resource_id, value, version, updated_at) VALUES ($1, $2, 1, $3)
           ON CONFLICT (resource_id) DO UPDATE SET value = EXCLUDED.value,
             version = tandem_working_memory.version + 1, updated_at = EXCLUDED.updated_at
           RETURNING version`
        : expected === 0
          ? `INSERT INTO tandem_working_memory (resource_id, value, version, updated_at) VALUES ($1, $2, 1, $3)
             ON CONFLICT (resource_id) DO NOTHING RETURNING version`
          : `UPDATE tandem_working_memory SET value = $2, version = version + 1, updated_at = $3
             WHERE resource_id = $1 AND version = $4 RETURNING version`;
    if (expected !== undefined && expected !== 0) params.push(expected);
    const { rows } = await sessionOp(this.client, `write the working memory of ${resourceId}`, () =>
      this.client.query(text, params),
    );
    return rows.length === 1;
  }

  async delete(resourceId: string): Promise<void> {
    checkSessionId(resourceId, 'resource');
    await sessionOp(this.client, `delete the working memory of ${resourceId}`, () =>
      this.client.query('DELETE FROM tandem_working_memory WHERE resource_id = $1', [resourceId]),
    );
  }
}

interface VectorRow {
  id: string;
  resource_id: string;
  thread_id: string;
  text: string;
  created_at: number;
  metadata: string | null;
  embedding: string | number[];
  score: number | string;
}

/** How many upserted records make the planner's statistics worth refreshing. */
const ANALYZE_EVERY = 1000;

/**
 * A {@link VectorStore} on a {@link SqlClient}. Records of different
 * dimensions may share the table; a query only meets records of its own.
 */
export class SqlVectorStore implements VectorStore {
  /** Dimensions whose HNSW index this store has made sure of. */
  private readonly indexed = new Set<number>();
  /** Records upserted since this store last refreshed the planner's statistics. */
  private sinceAnalyze = 0;
  private analyzed = false;

  constructor(
    private readonly client: SqlClient,
    private readonly mode: VectorMode,
  ) {}

  /** One statement per call: the records as parallel arrays, unnested; the last of a repeated id wins. */
  async upsert(records: readonly VectorRecord[]): Promise<void> {
    for (const record of records) assertVector(record.vector, `record ${record.id}`);
    const unique = [...new Map(records.map((r) => [r.id, r])).values()];
    if (unique.length === 0) return;
    const column = <T>(pick: (r: VectorRecord) => T) => unique.map(pick);
    await sessionOp(this.client, `store ${unique.length} vector(s)`, async () => {
      for (const dims of new Set(column((r) => r.vector.length))) await this.ensureIndex(dims);
      await this.client.query(
        `INSERT INTO tandem_vectors (id, resource_id, thread_id, text, created_at, metadata, dims, embedding)
         SELECT id, resource_id, thread_id, text, created_at, metadata, dims, e::${this.mode === 'pgvector' ? 'vector' : 'float8[]'}
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::int[], $8::text[])
           AS t(id, resource_id, thread_id, text, created_at, metadata, dims, e)
         ON CONFLICT (id) DO UPDATE SET resource_id = EXCLUDED.resource_id, thread_id = EXCLUDED.thread_id,
           text = EXCLUDED.text, created_at = EXCLUDED.created_at, metadata = EXCLUDED.metadata,
           dims = EXCLUDED.dims, embedding = EXCLUDED.embedding`,
        [
          column((r) => r.id),
          column((r) => r.resourceId),
          column((r) => r.threadId),
          column((r) => r.text),
          column((r) => r.createdAt),
          column((r) => (r.metadata ? JSON.stringify(r.metadata) : null)),
          column((r) => r.vector.length),
          column((r) => this.vectorText(r.vector)),
        ],
      );
      await this.analyzeAfter(unique.length);
    });
  }

  async query(query: VectorQuery): Promise<VectorMatch[]> {
    assertVector(query.vector, 'the query');
    const dims = query.vector.length;
    const params = [
      this.vectorText(query.vector),
      query.resourceId,
      query.excludeThreadId ?? null,
      query.topK,
    ];
    const filter = `dims = ${dims} AND resource_id = $2 AND ($3::text IS NULL OR thread_id <> $3)`;
    const columns = 'id, resource_id, thread_id, text, created_at, metadata';
    const rows = await sessionOp(this.client, `recall vectors of ${query.resourceId}`, async () => {
      if (this.mode === 'array') {
        const { rows } = await this.client.query<VectorRow>(
          `SELECT ${columns}, embedding, score FROM (
             SELECT ${columns}, embedding, (SELECT sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0)
               FROM unnest(embedding, $1::float8[]) AS t(a, b)) AS score
             FROM tandem_vectors WHERE ${filter}) AS scored
           ORDER BY score DESC NULLS LAST, id LIMIT $4`,
          params,
        );
        return rows;
      }
      await this.ensureIndex(dims);
      return this.client.transaction(async (tx) => {
        // Filtered HNSW scans stop after ef_search candidates; the iterative scan keeps going until topK pass the filter.
        await tx.query("SET LOCAL hnsw.iterative_scan = 'relaxed_order'");
        const distance = `embedding::vector(${dims}) <=> $1::vector(${dims})`;
        const { rows } = await tx.query<VectorRow>(
          `SELECT ${columns}, embedding::text AS embedding, 1 - (${distance}) AS score
           FROM tandem_vectors WHERE ${filter} ORDER BY ${distance} LIMIT $4`,
          params,
        );
        return rows;
      });
    });
    return rows
      .map((row) => ({ record: recordOf(row), score: Number(row.score ?? 0) }))
      .filter((match) => query.minScore === undefined || match.score >= query.minScore)
      .sort((a, b) => b.score - a.score);
  }

  async deleteResource(resourceId: string): Promise<void> {
    await sessionOp(this.client, `delete the vectors of ${resourceId}`, () =>
      this.client.query('DELETE FROM tandem_vectors WHERE resource_id = $1', [resourceId]),
    );
  }

  /**
   * PGlite runs no autovacuum, so without this the planner never learns the
   * table grew and keeps sorting a resource's rows instead of using the
   * HNSW index (800 ms instead of 5 ms at 20 000 vectors). Refreshed after
   * every 1 000 records this store wrote, and at the first.
   */
  private async analyzeAfter(count: number): Promise<void> {
    this.sinceAnalyze += count;
    if (this.analyzed && this.sinceAnalyze < ANALYZE_EVERY) return;
    await this.client.query('ANALYZE tandem_vectors');
    this.analyzed = true;
    this.sinceAnalyze = 0;
  }

  /** The vector as text Postgres casts: `[1,2]` for pgvector, `{1,2}` for an array. */
  private vectorText(vector: readonly number[]): string {
    return this.mode === 'pgvector' ? `[${vector.join(',')}]` : `{${vector.join(',')}}`;
  }

  /** pgvector's HNSW index needs a fixed dimension: one partial index per dimension, on the cast column. */
  private async ensureIndex(dims: number): Promise<void> {
    if (this.mode !== 'pgvector' || this.indexed.has(dims)) return;
    // Under the schema lock: two processes creating the same index at once would collide in the catalog.
    await this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await tx.query(
        `CREATE INDEX IF NOT EXISTS tandem_vectors_hnsw_${dims} ON tandem_vectors
         USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`,
      );
    });
    this.indexed.add(dims);
  }
}

function assertVector(vector: readonly number[], what: string): void {
  if (!Array.isArray(vector) || vector.length === 0 || !vector.every(Number.isFinite)) {
    throw new ConfigError(`Vector of ${what} must be a non-empty array of finite numbers`);
  }
}

function recordOf(row: VectorRow): VectorRecord {
  const record: VectorRecord = {
    id: row.id,
    vector:
      typeof row.embedding === 'string' ? (JSON.parse(row.embedding) as number[]) : row.embedding.map(Number),
    resourceId: row.resource_id,
    threadId: row.thread_id,
    text: row.text,
    createdAt: Number(row.created_at),
  };
  if (row.metadata !== null) record.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  return record;
}
