/**
 * Any AI SDK embedding model (`openai.embedding(...)`, `google.textEmbedding(...)`,
 * `ollama.embedding(...)`, spec v2, v3 and v4) as a tandem {@link EmbeddingModel}:
 * the model's own `doEmbed` is called (no `ai` import at run time), split
 * into its `maxEmbeddingsPerCall`, its errors mapped to `ModelError` as the
 * chat wrapper maps them.
 * @module
 */
import type { EmbeddingModel as AISDKEmbeddingModelUnion } from 'ai';
import { ConfigError, ModelError } from '../../core/errors.js';
import type { EmbeddingModel, EmbeddingResult } from '../../model/embedding.js';
import type { CallOptions } from '../../model/types.js';
import { toModelError } from './errors.js';

/** Any AI SDK embedding model object, as the installed `ai` types it. */
export type AISDKEmbeddingModel = Exclude<AISDKEmbeddingModelUnion, string>;

/** What tandem calls of an embedding model, in every spec version. */
interface EmbedderSpec {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  readonly maxEmbeddingsPerCall: PromiseLike<number | undefined> | number | undefined;
  doEmbed(options: {
    values: string[];
    abortSignal?: AbortSignal;
  }): PromiseLike<{ embeddings: number[][]; usage?: { tokens?: number } }>;
}

/** Options of {@link fromAISDKEmbedding}. */
export interface FromAISDKEmbeddingOptions {
  /** The vectors' length (the AI SDK does not say it): e.g. 1536 for OpenAI's text-embedding-3-small. */
  dimensions: number;
  /** Texts per call. Default: the model's `maxEmbeddingsPerCall` when it is a number, else 100. */
  maxBatchSize?: number;
}

class AISDKEmbedder implements EmbeddingModel {
  readonly id: string;
  readonly dimensions: number;
  readonly maxBatchSize: number;
  private readonly ctx: { provider: string; model: string };

  constructor(
    private readonly model: EmbedderSpec,
    options: FromAISDKEmbeddingOptions,
  ) {
    // `openai.embedding` is named `openai.embedding`: the id keeps the vendor, as the chat wrapper does.
    const provider = model.provider.split('.')[0] || model.provider;
    this.ctx = { provider, model: model.modelId };
    this.id = `${provider}:${model.modelId}`;
    this.dimensions = options.dimensions;
    const own = typeof model.maxEmbeddingsPerCall === 'number' ? model.maxEmbeddingsPerCall : undefined;
    this.maxBatchSize = options.maxBatchSize ?? own ?? 100;
  }

  async embed(texts: readonly string[], options: CallOptions = {}): Promise<EmbeddingResult> {
    const limit = Math.max(
      1,
      Math.min(this.maxBatchSize, (await this.model.maxEmbeddingsPerCall) ?? Infinity),
    );
    const vectors: number[][] = [];
    let tokens: number | undefined;
    for (let start = 0; start < texts.length; start += limit) {
      const values = texts.slice(start, start + limit);
      let reply: Awaited<ReturnType<EmbedderSpec['doEmbed']>>;
      try {
        reply = await this.model.doEmbed({ values, abortSignal: options.signal });
      } catch (error) {
        throw toModelError(error, this.ctx, options.signal);
      }
      if (!Array.isArray(reply?.embeddings) || reply.embeddings.length !== values.length) {
        throw new ModelError(
          'invalid_response',
          `${this.id}: the model answered ${reply?.embeddings?.length ?? 0} embeddings for ${values.length} texts`,
          {
            model: this.id,
            retryable: false,
          },
        );
      }
      vectors.push(...reply.embeddings);
      if (typeof reply.usage?.tokens === 'number') tokens = (tokens ?? 0) + reply.usage.tokens;
    }
    return tokens === undefined ? { vectors } : { vectors, tokens };
  }
}

/**
 * Wraps an AI SDK embedding model.
 *
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * const embedder = fromAISDKEmbedding(openai.embedding('text-embedding-3-small'), { dimensions: 1536 });
 * ```
 * @throws ConfigError for a value that is not an AI SDK embedding model, or a missing `dimensions`.
 */
export function fromAISDKEmbedding(
  model: AISDKEmbeddingModel,
  options: FromAISDKEmbeddingOptions,
): EmbeddingModel {
  const spec = model as unknown as Partial<EmbedderSpec>;
  if (typeof spec?.doEmbed !== 'function' || typeof spec.modelId !== 'string') {
    throw new ConfigError(
      'fromAISDKEmbedding: expected an AI SDK embedding model object (e.g. openai.embedding("text-embedding-3-small")), not a model id string',
    );
  }
  if (!Number.isInteger(options?.dimensions) || options.dimensions < 1) {
    throw new ConfigError(
      'fromAISDKEmbedding: pass { dimensions }, the length of the vectors the model returns',
    );
  }
  return new AISDKEmbedder(spec as EmbedderSpec, options);
}
