/**
 * The image model contract, beside `ChatModel`: plain data in and out, an
 * adapter is an object with `generate`. `tandem-agents/openai` implements it
 * for the OpenAI Images API; `tandem-agents/testing` has a scripted double.
 * @module
 */
import type { MediaData } from './messages.js';
import type { Usage } from './usage.js';

/** Version of this contract; bumped on any breaking change to these types. */
export const IMAGE_MODEL_SPEC_VERSION = 1 as const;

/** One image generation call. */
export interface ImageRequest {
  prompt: string;
  /** How many images. Default: the provider's (1). */
  n?: number;
  /** `WIDTHxHEIGHT`, e.g. `1024x1024`, or a provider's own value (`auto`). */
  size?: string;
  /** Provider-specific quality (`low`, `high`, `hd`, …). */
  quality?: string;
  /** Passed through to the named provider's request body (`{ openai: {...} }`). */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** Per-call options. */
export interface ImageCallOptions {
  signal?: AbortSignal;
}

/** One generated image: its bytes (`data`) or a URL to fetch them from (`url`), at least one. */
export interface GeneratedImage {
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  data?: MediaData;
  url?: string;
  /** The prompt the provider actually used, when it rewrote it. */
  revisedPrompt?: string;
}

/** The reply of one call. */
export interface ImageResponse {
  images: GeneratedImage[];
  /** Tokens, for providers that bill image generation by token. */
  usage?: Usage;
}

/** An image model: the one interface every image adapter implements. */
export interface ImageModel {
  /** `provider:model`, e.g. `openai:gpt-image-1`. */
  readonly id: string;
  generate(request: ImageRequest, options?: ImageCallOptions): Promise<ImageResponse>;
}
