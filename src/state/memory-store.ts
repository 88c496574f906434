/**
 * Long-term memory stores: a user's working memory (notes the model reads in
 * its system prompt and updates through a tool) and the vectors semantic
 * recall searches. Stores: memory (here), the embedded and Postgres SQL
 * stores; Redis keeps working memory.
 * @module
 */

/** A resource's (user's) working memory: a JSON value, or text when no schema is set. */
export interface WorkingMemoryRecord {
  value: unknown;
  /** Bumped on every write; a conditional write compares it. */
  version: number;
  updatedAt: number;
}

/** Where working memory lives, keyed by resource id. */
export interface WorkingMemoryStore {
  get(resourceId: string): Promise<WorkingMemoryRecord | undefined>;
  /**
   * Replaces the value. With `expectedVersion`, writes only when the stored
   * record is at that version (0: none stored) and resolves whether it wrote.
   */
  set(
    resourceId: string,
    value: unknown,
    options?: { expectedVersion?: number; now?: number },
  ): Promise<boolean>;
  delete(resourceId: string): Promise<void>;
}

/** One stored embedding: a message (or other text) of a thread. */
export interface VectorRecord {
  /** Unique within the store, e.g. `<threadId>:<seq>`. */
  id: string;
  vector: number[];
  resourceId: string;
  threadId: string;
  /** The text the vector was made from, given back on recall. */
  text: string;
  createdAt: number;
  metadata?: Record<string, unknown>;
}

/** A recalled record and its cosine similarity (1 = same direction). */
export interface VectorMatch {
  record: VectorRecord;
  score: number;
}

/** Options of {@link VectorStore.query}. */
export interface VectorQuery {
  vector: number[];
  topK: number;
  /** Only records of this resource. */
  resourceId: string;
  /** Leave out records of this thread (the current conversation is in the prompt already). */
  excludeThreadId?: string;
  /** Only matches with at least this score. */
  minScore?: number;
}

/** Where embeddings live; searched by cosine similarity. */
export interface VectorStore {
  /** Inserts or replaces records by id. */
  upsert(records: readonly VectorRecord[]): Promise<void>;
  /** The `topK` nearest records, best first. */
  query(query: VectorQuery): Promise<VectorMatch[]>;
  /** Removes every record of `resourceId`. */
  deleteResource(resourceId: string): Promise<void>;
}
