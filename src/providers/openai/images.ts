/**
 * An {@link ImageModel} over the OpenAI Images API (`POST /images/generations`):
 * `gpt-image-1` (base64 replies), DALL·E 2 and 3 (URL or base64 replies), and
 * compatible servers through `baseURL`.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type {
  GeneratedImage,
  ImageCallOptions,
  ImageModel,
  ImageRequest,
  ImageResponse,
} from '../../core/image-model.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import { readJSONBody } from '../shared/http.js';
import {
  type OpenAIProviderOptions,
  postOpenAI,
  type ResolvedOpenAIConfig,
  resolveOpenAIConfig,
} from './config.js';

/** Defaults of every call of an {@link OpenAIImageModel}; a request's own values win. */
export interface OpenAIImageSettings {
  size?: string;
  quality?: string;
  n?: number;
  /** `url` or `b64_json`: DALL·E only (gpt-image models always answer base64 and refuse the field). */
  responseFormat?: 'url' | 'b64_json';
  /** `png`, `jpeg` or `webp` (gpt-image models). Default png. */
  outputFormat?: 'png' | 'jpeg' | 'webp';
  /** Any other body fields (`style`, `background`, `moderation`, …). */
  extra?: Record<string, unknown>;
}

/** Options of {@link createOpenAIImageModel}. */
export interface OpenAIImageModelOptions extends OpenAIProviderOptions {
  settings?: OpenAIImageSettings;
}

interface WireImage {
  b64_json?: unknown;
  url?: unknown;
  revised_prompt?: unknown;
}

interface WireImagesResponse {
  data?: unknown;
  output_format?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** Image generation through the OpenAI Images API. */
export class OpenAIImageModel implements ImageModel {
  /** `provider:model`, e.g. `openai:gpt-image-1`. */
  readonly id: string;
  private readonly ctx: { provider: string; model: string };

  constructor(
    private readonly config: ResolvedOpenAIConfig,
    /** The model name the server knows, e.g. `gpt-image-1` or `dall-e-3`. */
    readonly modelId: string,
    private readonly settings: OpenAIImageSettings = {},
  ) {
    this.id = `${config.provider}:${modelId}`;
    this.ctx = { provider: config.provider, model: modelId };
  }

  /**
   * Generates the images of one request.
   * @throws ModelError as the chat models do (`auth`, `rate_limit`, `bad_request`, `content_filter`, …);
   *   `invalid_response` for a reply without images.
   */
  async generate(request: ImageRequest, options: ImageCallOptions = {}): Promise<ImageResponse> {
    const response = await postOpenAI(this.config, {
      path: '/images/generations',
      body: this.body(request),
      model: this.modelId,
      signal: options.signal,
    });
    const wire = await readJSONBody<WireImagesResponse>(response, options.signal, this.ctx);
    return this.parse(wire);
  }

  private body(request: ImageRequest): Record<string, unknown> {
    const s = this.settings;
    const body: Record<string, unknown> = { ...s.extra, model: this.modelId, prompt: request.prompt };
    const n = request.n ?? s.n;
    const size = request.size ?? s.size;
    const quality = request.quality ?? s.quality;
    if (n !== undefined) body.n = n;
    if (size !== undefined) body.size = size;
    if (quality !== undefined) body.quality = quality;
    if (s.responseFormat) body.response_format = s.responseFormat;
    if (s.outputFormat) body.output_format = s.outputFormat;
    return { ...body, ...request.providerOptions?.[this.config.provider] };
  }

  private parse(wire: WireImagesResponse): ImageResponse {
    const format = typeof wire.output_format === 'string' ? wire.output_format : this.settings.outputFormat;
    const mediaType = MEDIA_TYPES[format ?? 'png'] ?? 'image/png';
    const images: GeneratedImage[] = [];
    for (const item of Array.isArray(wire.data) ? (wire.data as WireImage[]) : []) {
      const image: GeneratedImage = { mediaType };
      if (typeof item?.b64_json === 'string' && item.b64_json) image.data = item.b64_json;
      if (typeof item?.url === 'string' && item.url) image.url = item.url;
      if (typeof item?.revised_prompt === 'string') image.revisedPrompt = item.revised_prompt;
      if (image.data !== undefined || image.url !== undefined) images.push(image);
    }
    if (images.length === 0) {
      throw new ModelError('invalid_response', `${this.id}: the reply holds no image`, {
        model: this.id,
        body: wire,
      });
    }
    return { images, usage: usageOf(wire.usage) };
  }
}

function usageOf(wire: WireImagesResponse['usage']): Usage | undefined {
  if (!wire) return undefined;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { ...emptyUsage(), inputTokens: count(wire.input_tokens), outputTokens: count(wire.output_tokens) };
}

/**
 * An image model of OpenAI or a compatible server.
 *
 * ```ts
 * const images = createOpenAIImageModel('gpt-image-1', { apiKey, settings: { size: '1024x1024' } });
 * const { images: [first] } = await images.generate({ prompt: 'a lighthouse at dawn, watercolour' });
 * ```
 */
export function createOpenAIImageModel(
  modelId: string,
  options: OpenAIImageModelOptions = {},
): OpenAIImageModel {
  const { settings, ...provider } = options;
  return new OpenAIImageModel(resolveOpenAIConfig(provider), modelId, settings);
}
