/**
 * Long-term memory in the process: working memory per resource and vectors
 * searched by an exact cosine scan. For tests, demos and one-process apps;
 * the embedded and Postgres stores keep the same data on disk.
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
} from './memory-store.js';
import { checkSessionId } from './session.js';

/**
 * Working memory in a map; vectors in one flat `Float64Array` per resource
 * (so one user's recall never reads another's, and a scan walks contiguous
 * memory). A query is an exact cosine scan keeping the best `topK` in a
 * small sorted list (bench/memory-recall.ts has the figures).
 *
 * ```ts
 * const store = new InMemoryMemoryStore();
 * const executor = new Executor({ model, memory: { store, recall: { embedder } } });
 * ```
 */
export class InMemoryMemoryStore implements WorkingMemoryStore, VectorStore {
  private readonly working = new Map<string, WorkingMemoryRecord>();
  private readonly vectors = new Map<string, ResourceVectors>();
  /** Record id → its resource, so an upsert that moves a record drops the old copy. */
  private readonly owners = new Map<string, string>();

  async get(resourceId: string): Promise<WorkingMemoryRecord | undefined> {
    const record = this.working.get(checkSessionId(resourceId, 'resource'));
    // Copies both ways: a caller changing a value it wrote or read changes nothing stored.
    return record && { ...record, value: structuredClone(record.value) };
  }

  async set(
    resourceId: string,
    value: unknown,
    options: { expectedVersion?: number; now?: number } = {},
  ): Promise<boolean> {
    const version = this.working.get(checkSessionId(resourceId, 'resource'))?.version ?? 0;
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) return false;
    const record = {
      value: structuredClone(value),
      version: version + 1,
      updatedAt: options.now ?? Date.now(),
    };
    this.working.set(resourceId, record);
    return true;
  }

  async delete(resourceId: string): Promise<void> {
    this.working.delete(checkSessionId(resourceId, 'resource'));
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    for (const record of records) {
      checkSessionId(record.resourceId, 'resource');
      const owner = this.owners.get(record.id);
      if (owner !== undefined && owner !== record.resourceId) this.vectors.get(owner)?.delete(record.id);
      let own = this.vectors.get(record.resourceId);
      if (!own) this.vectors.set(record.resourceId, (own = new ResourceVectors(record.vector.length)));
      own.put(record);
      this.owners.set(record.id, record.resourceId);
    }
  }

  async query(query: VectorQuery): Promise<VectorMatch[]> {
    return this.vectors.get(query.resourceId)?.query(query) ?? [];
  }

  async deleteResource(resourceId: string): Promise<void> {
    checkSessionId(resourceId, 'resource');
    for (const id of this.vectors.get(resourceId)?.ids() ?? []) this.owners.delete(id);
    this.vectors.delete(resourceId);
    this.working.delete(resourceId);
  }
}

/** The vectors of one resource: rows of a flat matrix, their norms, and their records. */
class ResourceVectors {
  private matrix: Float64Array;
  private norms: Float64Array;
  private readonly records: Array<Omit<VectorRecord, 'vector'>> = [];
  private readonly rows = new Map<string, number>();

  constructor(private readonly dims: number) {
    this.matrix = new Float64Array(dims * 16);
    this.norms = new Float64Array(16);
  }

  /** Inserts `record` or replaces the one of its id. */
  put(record: VectorRecord): void {
    if (record.vector.length !== this.dims) {
      throw new ConfigError(
        `InMemoryMemoryStore: a vector of ${record.vector.length} numbers for resource ${record.resourceId}, whose vectors have ${this.dims} (one embedding model per store)`,
      );
    }
    let row = this.rows.get(record.id);
    if (row === undefined) {
      row = this.records.length;
      this.grow(row + 1);
      this.rows.set(record.id, row);
    }
    const { vector, ...rest } = record;
    this.records[row] = rest.metadata ? { ...rest, metadata: { ...rest.metadata } } : rest;
    this.matrix.set(vector, row * this.dims);
    this.norms[row] = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  }

  ids(): IterableIterator<string> {
    return this.rows.keys();
  }

  /** Removes the record `id`, moving the last row into its place. */
  delete(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.records.length - 1;
    if (row !== last) {
      this.matrix.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.norms[row] = this.norms[last]!;
      this.records[row] = this.records[last]!;
      this.rows.set(this.records[row]!.id, row);
    }
    this.records.pop();
    this.rows.delete(id);
  }

  query(query: VectorQuery): VectorMatch[] {
    // A typed copy: the scan's inner loop then reads two Float64Arrays, which engines optimise best.
    const q = Float64Array.from(query.vector);
    const queryNorm = Math.sqrt(q.reduce((sum, x) => sum + x * x, 0));
    if (query.topK <= 0 || queryNorm === 0 || q.length !== this.dims) return [];
    const minScore = query.minScore ?? -Infinity;
    const best: Array<{ row: number; score: number }> = [];
    for (let row = 0; row < this.records.length; row++) {
      const norm = this.norms[row]!;
      if (norm === 0 || this.records[row]!.threadId === query.excludeThreadId) continue;
      const score = dotAt(this.matrix, row * this.dims, q) / (queryNorm * norm);
      if (score < minScore || (best.length === query.topK && score <= best[best.length - 1]!.score)) continue;
      insertSorted(best, { row, score }, query.topK);
    }
    return best.map(({ row, score }) => ({ record: this.recordAt(row), score }));
  }

  private recordAt(row: number): VectorRecord {
    const vector = Array.from(this.matrix.subarray(row * this.dims, (row + 1) * this.dims));
    const record = this.records[row]!;
    return { ...record, ...(record.metadata && { metadata: { ...record.metadata } }), vector };
  }

  private grow(rows: number): void {
    if (rows <= this.norms.length) return;
    const capacity = Math.max(rows, this.norms.length * 2);
    const matrix = new Float64Array(capacity * this.dims);
    matrix.set(this.matrix);
    this.matrix = matrix;
    const norms = new Float64Array(capacity);
    norms.set(this.norms);
    this.norms = norms;
  }
}

/** Puts `match` into `best` (sorted by score, best first) and keeps at most `limit`. */
function insertSorted<M extends { score: number }>(best: M[], match: M, limit: number): void {
  let at = best.length;
  while (at > 0 && best[at - 1]!.score < match.score) at--;
  best.splice(at, 0, match);
  if (best.length > limit) best.pop();
}

/**
 * The dot product of `vector` and the row of `matrix` starting at `offset`,
 * in four running sums: independent additions the CPU overlaps, where one
 * sum waits on each addition before the next.
 */
function dotAt(matrix: Float64Array, offset: number, vector: Float64Array): number {
  const n = vector.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += matrix[offset + i]! * vector[i]!;
    s1 += matrix[offset + i + 1]! * vector[i + 1]!;
    s2 += matrix[offset + i + 2]! * vector[i + 2]!;
    s3 += matrix[offset + i + 3]! * vector[i + 3]!;
  }
  for (; i < n; i++) s0 += matrix[offset + i]! * vector[i]!;
  return s0 + s1 + s2 + s3;
}
