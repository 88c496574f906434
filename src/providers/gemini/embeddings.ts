/**
 * An {@link EmbeddingModel} over the Gemini API's `batchEmbedContents`
 * (`POST <baseURL>/models/<model>:batchEmbedContents`): `gemini-embedding-001`,
 * `text-embedding-004`.
 * @module
 */
import { ConfigError, ModelError } from '../../core/errors.js';
import type { EmbeddingModel, EmbeddingResult } from '../../model/embedding.js';
import type { CallOptions } from '../../model/types.js';
import { type ApiKeySource, apiKeyOf, isHost } from '../shared/api-key.js';
import { type HttpConfig, postJSON, readJSONBody } from '../shared/http.js';

const PROVIDER = 'gemini';
const GOOGLE_HOST = 'generativelanguage.googleapis.com';

/** Options of {@link createGeminiEmbedding}. */
export interface GeminiEmbeddingOptions extends HttpConfig {
  /**
   * API key sent as `x-goog-api-key` (default `GEMINI_API_KEY`, then
   * `GOOGLE_API_KEY`, read per request). Google's own API with none throws a
   * `ConfigError` at the first call, before any request.
   */
  apiKey?: string;
  /** API root (default `https://generativelanguage.googleapis.com/v1beta`). */
  baseURL?: string;
  /**
   * The vectors' length, sent as `outputDimensionality` (gemini-embedding-001
   * takes 128–3072). Default: the model's own (gemini-embedding-001 3072,
   * text-embedding-004 768); another model must be given it.
   */
  dimensions?: number;
  /**
   * What the vectors are for, sent as `taskType` (`RETRIEVAL_DOCUMENT`,
   * `RETRIEVAL_QUERY`, `SEMANTIC_SIMILARITY`, …). Default: none (the model's
   * general-purpose vectors, which suit recall where stored messages are
   * also queries).
   */
  taskType?: string;
  /** Texts per request. Default 100 (the API's limit). */
  maxBatchSize?: number;
}

const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
};

interface WireBatch {
  embeddings?: Array<{ values?: unknown }>;
}

/** Embeddings through the Gemini API. */
export class GeminiEmbeddingModel implements EmbeddingModel {
  /** `gemini:<model>`. */
  readonly id: string;
  readonly dimensions: number;
  readonly maxBatchSize: number;
  private readonly path: string;
  private readonly baseURL: string;
  private readonly keySource: ApiKeySource;

  constructor(
    /** The model name, e.g. `gemini-embedding-001`. */
    readonly modelId: string,
    private readonly options: GeminiEmbeddingOptions = {},
  ) {
    this.id = `${PROVIDER}:${modelId}`;
    this.path = /^(models|tunedModels)\//.test(modelId) ? modelId : `models/${modelId}`;
    const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[this.path.replace(/^models\//, '')];
    if (dimensions === undefined || !Number.isInteger(dimensions) || dimensions < 1) {
      throw new ConfigError(
        `createGeminiEmbedding: the vector length of ${modelId} is unknown; pass { dimensions } (a positive integer)`,
      );
    }
    this.dimensions = dimensions;
    this.maxBatchSize = options.maxBatchSize ?? 100;
    this.baseURL = (options.baseURL ?? `https://${GOOGLE_HOST}/v1beta`).replace(/\/+$/, '');
    this.keySource = {
      factory: 'createGeminiEmbedding',
      given: options.apiKey,
      env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
      required: isHost(this.baseURL, GOOGLE_HOST),
      headers: options.headers,
      authHeaders: ['x-goog-api-key', 'authorization'],
    };
  }

  /**
   * One vector per text, in order.
   * @throws ConfigError before any request when Google's API has no key (`GEMINI_API_KEY`);
   *   ModelError as the chat models do, `invalid_response` for a reply without one vector per text.
   */
  async embed(texts: readonly string[], options: CallOptions = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { vectors: [] };
    const headers: Record<string, string> = {};
    const apiKey = apiKeyOf(this.keySource);
    if (apiKey) headers['x-goog-api-key'] = apiKey;
    const response = await postJSON({
      url: `${this.baseURL}/${this.path}:batchEmbedContents`,
      body: { requests: texts.map((text) => this.request(text)) },
      headers: { ...headers, ...this.options.headers },
      signal: options.signal,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      provider: PROVIDER,
      model: this.modelId,
    });
    const wire = await readJSONBody<WireBatch>(response, options.signal, {
      provider: PROVIDER,
      model: this.modelId,
    });
    const vectors = (Array.isArray(wire.embeddings) ? wire.embeddings : []).map((item) => item?.values);
    if (vectors.length !== texts.length || !vectors.every(isVector)) {
      throw new ModelError(
        'invalid_response',
        `${this.id}: the reply holds ${vectors.length} embeddings for ${texts.length} texts`,
        { model: this.id, body: wire },
      );
    }
    return { vectors };
  }

  private request(text: string): Record<string, unknown> {
    const request: Record<string, unknown> = { model: this.path, content: { parts: [{ text }] } };
    if (this.options.dimensions !== undefined) request.outputDimensionality = this.options.dimensions;
    if (this.options.taskType) request.taskType = this.options.taskType;
    return request;
  }
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'number');
}

/**
 * A Gemini embedding model.
 *
 * ```ts
 * const embedder = createGeminiEmbedding('gemini-embedding-001', { dimensions: 768 });
 * ```
 * @throws ConfigError when the vector length of the model is unknown and not given.
 */
export function createGeminiEmbedding(
  modelId: string,
  options: GeminiEmbeddingOptions = {},
): GeminiEmbeddingModel {
  return new GeminiEmbeddingModel(modelId, options);
}
