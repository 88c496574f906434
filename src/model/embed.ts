/**
 * Embedding many texts through an {@link EmbeddingModel}: split into the
 * model's batch size, each batch retried on a retryable failure with the
 * chat models' backoff (`Retry-After` honoured), so a rate limit while
 * remembering a conversation waits instead of losing it.
 * @module
 */
import { isErrorOf, ModelError } from '../core/errors.js';
import { type Runtime, resolveRuntime, sleep } from '../core/seams.js';
import type { EmbeddingModel } from './embedding.js';
import {
  type RetryOptions,
  resolveRetryPolicy,
  retryDelay,
  toModelError,
} from './resilience/retry-policy.js';

/** Options of {@link embedTexts}. */
export interface EmbedOptions {
  signal?: AbortSignal;
  /** Backoff of a failed batch (the chat models' defaults: 3 retries from 2 s); `false`: one attempt. */
  retry?: RetryOptions | false;
  /** Clock and random source of the waits. */
  runtime?: Partial<Runtime>;
}

/**
 * One vector per text, in order, embedding at most `model.maxBatchSize`
 * texts per call.
 * @throws ModelError when a batch fails for good or the model answers the
 *   wrong number of vectors or of the wrong length; AbortError on abort.
 */
export async function embedTexts(
  model: EmbeddingModel,
  texts: readonly string[],
  options: EmbedOptions = {},
): Promise<number[][]> {
  const size = Math.max(1, model.maxBatchSize ?? 1);
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += size) {
    const batch = texts.slice(start, start + size);
    const got = await embedBatch(model, batch, options);
    checkVectors(model, batch.length, got);
    vectors.push(...got);
  }
  return vectors;
}

async function embedBatch(
  model: EmbeddingModel,
  batch: readonly string[],
  options: EmbedOptions,
): Promise<number[][]> {
  const policy = resolveRetryPolicy(options.retry);
  const { clock, random } = resolveRuntime(options.runtime);
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await model.embed(batch, { signal: options.signal });
      return result.vectors;
    } catch (thrown) {
      const error = toModelError(thrown, model.id, options.signal);
      if (!isErrorOf(error, ModelError) || !error.retryable || attempt >= policy.maxRetries) throw error;
      await sleep(clock, retryDelay(attempt + 1, error, { retry: policy, random }), options.signal);
    }
  }
}

function checkVectors(model: EmbeddingModel, count: number, vectors: number[][]): void {
  const problem =
    vectors.length !== count
      ? `${vectors.length} vectors for ${count} texts`
      : vectors.find((vector) => vector.length !== model.dimensions)?.length;
  if (problem === undefined) return;
  const detail =
    typeof problem === 'string' ? problem : `a vector of ${problem} numbers, not ${model.dimensions}`;
  throw new ModelError('invalid_response', `${model.id}: the embedding reply holds ${detail}`, {
    model: model.id,
    retryable: false,
  });
}
