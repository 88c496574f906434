/**
 * A deterministic embedding model for tests and offline examples: texts that
 * share words get similar vectors, with no model and no network.
 * @module
 */

import type { EmbeddingModel, EmbeddingResult } from '../model/embedding.js';
import type { CallOptions } from '../model/types.js';

/** Options of {@link HashEmbedder}. */
export interface HashEmbedderOptions {
  /** The vectors' length. Default 256. */
  dimensions?: number;
  /** Texts per `embed` call. Default 64. */
  maxBatchSize?: number;
  /** The model id. Default `test:hash-embedder`. */
  id?: string;
}

/** Words too common to say what a text is about. */
const STOP_WORDS = new Set(
  'a an and are as at be by do for from has have i in is it its me my of on or so that the this to was were what which who will with you your'.split(
    ' ',
  ),
);

/**
 * Bag of words hashed into `dimensions` buckets (FNV-1a, a hashed sign so
 * collisions cancel rather than pile up), normalised to length 1: the
 * cosine of two texts grows with the words they share. Every call is
 * recorded in `calls`.
 *
 * ```ts
 * const embedder = new HashEmbedder();
 * const executor = new Executor({ model, memory: { store, recall: { embedder } } });
 * ```
 */
export class HashEmbedder implements EmbeddingModel {
  readonly id: string;
  readonly dimensions: number;
  readonly maxBatchSize: number;
  /** The texts of each `embed` call, in order. */
  readonly calls: string[][] = [];

  constructor(options: HashEmbedderOptions = {}) {
    this.id = options.id ?? 'test:hash-embedder';
    this.dimensions = options.dimensions ?? 256;
    this.maxBatchSize = options.maxBatchSize ?? 64;
  }

  async embed(texts: readonly string[], options?: CallOptions): Promise<EmbeddingResult> {
    options?.signal?.throwIfAborted();
    this.calls.push([...texts]);
    return { vectors: texts.map((text) => this.vectorOf(text)) };
  }

  /** The vector of one text (all zeros for a text without words). */
  vectorOf(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of wordsOf(text)) {
      const hash = fnv1a(word);
      vector[hash % this.dimensions]! += hash & 0x8000_0000 ? -1 : 1;
    }
    const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
    return norm === 0 ? vector : vector.map((x) => x / norm);
  }
}

/** Lower-cased words without stop words, a plural `s` dropped so "cats" meets "cat". */
function wordsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 ? word.replace(/s$/, '') : word));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
