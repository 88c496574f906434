/**
 * The embedding seam: text in, vectors out. Semantic recall and any
 * retrieval a host app builds go through it. Adapters: OpenAI, Gemini, the
 * AI SDK; `tandem-agents/testing` has a deterministic double.
 * @module
 */
import type { CallOptions } from './types.js';

/** A model that turns texts into vectors of one fixed length. */
export interface EmbeddingModel {
  /** `provider:model`, e.g. `openai:text-embedding-3-small`. */
  readonly id: string;
  /** The vectors' length. */
  readonly dimensions: number;
  /** Largest number of texts one `embed` call takes; callers split larger batches. Default 1. */
  readonly maxBatchSize?: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: CallOptions): Promise<EmbeddingResult>;
}

/** What {@link EmbeddingModel.embed} returns. */
export interface EmbeddingResult {
  vectors: number[][];
  /** Input tokens the provider counted, when it reports them. */
  tokens?: number;
}
