/**
 * An {@link EmbeddingModel} over the OpenAI Embeddings API
 * (`POST /embeddings`): `text-embedding-3-small` / `-large`, `ada-002`, and
 * compatible servers (Ollama, vLLM, LM Studio) through `baseURL`.
 * @module
 */
import { ConfigError, ModelError } from '../../core/errors.js';
import type { EmbeddingModel, EmbeddingResult } from '../../model/embedding.js';
import type { CallOptions } from '../../model/types.js';
import { readJSONBody } from '../shared/http.js';
import {
  type OpenAIProviderOptions,
  postOpenAI,
  type ResolvedOpenAIConfig,
  resolveOpenAIConfig,
} from './config.js';

/** Options of {@link createOpenAIEmbedding}. */
export interface OpenAIEmbeddingOptions extends OpenAIProviderOptions {
  /**
   * The vectors' length. OpenAI's `text-embedding-3-*` models shorten their
   * vectors to it (sent as `dimensions`); another model must be given its
   * length here unless it is one OpenAI names (3-small 1536, 3-large 3072,
   * ada-002 1536).
   */
  dimensions?: number;
  /** Texts per request. Default 2048 (OpenAI's limit); compatible servers may take fewer. */
  maxBatchSize?: number;
}

/** Vector lengths of OpenAI's embedding models. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

interface WireEmbeddings {
  data?: Array<{ index?: unknown; embedding?: unknown }>;
  usage?: { prompt_tokens?: unknown };
}

/** Embeddings through the OpenAI API or a compatible server. */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  /** `provider:model`, e.g. `openai:text-embedding-3-small`. */
  readonly id: string;
  readonly dimensions: number;
  readonly maxBatchSize: number;
  private readonly sendDimensions: boolean;

  constructor(
    private readonly config: ResolvedOpenAIConfig,
    /** The model name the server knows. */
    readonly modelId: string,
    options: Pick<OpenAIEmbeddingOptions, 'dimensions' | 'maxBatchSize'> = {},
  ) {
    this.id = `${config.provider}:${modelId}`;
    const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[modelId];
    if (dimensions === undefined || !Number.isInteger(dimensions) || dimensions < 1) {
      throw new ConfigError(
        `createOpenAIEmbedding: the vector length of ${modelId} is unknown; pass { dimensions } (a positive integer)`,
      );
    }
    this.dimensions = dimensions;
    this.maxBatchSize = options.maxBatchSize ?? 2048;
    // Only the v3 models take `dimensions`; older ones and most compatible servers refuse the field.
    this.sendDimensions = options.dimensions !== undefined && modelId.startsWith('text-embedding-3');
  }

  /**
   * One vector per text, in order.
   * @throws ConfigError before any request when OpenAI's own API has no key (`OPENAI_API_KEY`);
   *   ModelError as the chat models do (`auth`, `rate_limit` with `retryAfterMs`, `server`, …),
   *   `invalid_response` for a reply without one vector per text.
   */
  async embed(texts: readonly string[], options: CallOptions = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { vectors: [] };
    const body: Record<string, unknown> = { model: this.modelId, input: texts, encoding_format: 'float' };
    if (this.sendDimensions) body.dimensions = this.dimensions;
    const response = await postOpenAI(this.config, {
      path: '/embeddings',
      body,
      model: this.modelId,
      signal: options.signal,
    });
    const ctx = { provider: this.config.provider, model: this.modelId };
    const wire = await readJSONBody<WireEmbeddings>(response, options.signal, ctx);
    return this.parse(wire, texts.length);
  }

  private parse(wire: WireEmbeddings, count: number): EmbeddingResult {
    const vectors: number[][] = [];
    const items = Array.isArray(wire.data) ? wire.data : [];
    for (const [position, item] of items.entries()) {
      const index = typeof item?.index === 'number' ? item.index : position;
      if (isVector(item?.embedding)) vectors[index] = item.embedding;
    }
    if (vectors.length !== count || vectors.some((vector) => vector === undefined)) {
      throw new ModelError(
        'invalid_response',
        `${this.id}: the reply holds ${items.length} embeddings for ${count} texts`,
        {
          model: this.id,
          body: wire,
        },
      );
    }
    const tokens = wire.usage?.prompt_tokens;
    return typeof tokens === 'number' ? { vectors, tokens } : { vectors };
  }
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'number');
}

/**
 * An embedding model of OpenAI or a compatible server.
 *
 * ```ts
 * const embedder = createOpenAIEmbedding('text-embedding-3-small');
 * const local = createOpenAIEmbedding('nomic-embed-text', { baseURL: 'http://localhost:11434/v1', dimensions: 768 });
 * ```
 * @throws ConfigError when the vector length of the model is unknown and not given.
 */
export function createOpenAIEmbedding(
  modelId: string,
  options: OpenAIEmbeddingOptions = {},
): OpenAIEmbeddingModel {
  const { dimensions, maxBatchSize, ...provider } = options;
  return new OpenAIEmbeddingModel(resolveOpenAIConfig(provider), modelId, { dimensions, maxBatchSize });
}
