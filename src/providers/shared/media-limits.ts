/**
 * The size limits a provider states for images and files sent inline,
 * checked while a request body is built: a request the provider would
 * refuse for its size is refused here, before anything is sent, with a
 * `bad_request` error naming the part and the limit.
 * @module
 */
import { mediaByteLength } from '../../core/media.js';
import type { MediaPart } from '../../core/messages.js';

const MB = 1024 * 1024;

/** What one provider takes inline. Sizes are in bytes, or base64 characters when `base64` is set. */
export interface MediaLimits {
  /** The provider as messages name it, e.g. `Anthropic`. */
  name: string;
  /** Whether the provider measures inline data as its base64 text rather than its bytes. */
  base64: boolean;
  /** Largest image given as data. */
  image?: number;
  /** Largest PDF given as data. */
  pdf?: number;
  /** Largest total of what `total.of` counts in one request. */
  total?: { size: number; of: 'images' | 'inline data' };
  /** Most images in one request, given as data or by URL. */
  images?: number;
}

/** Anthropic: 5 MB per image and 32 MB per request, both measured as base64. */
export const ANTHROPIC_LIMITS: MediaLimits = {
  name: 'Anthropic',
  base64: true,
  image: 5 * MB,
  total: { size: 32 * MB, of: 'inline data' },
};

/** OpenAI's own API: 20 MB per image, 50 MB of image bytes and 500 images per request. */
export const OPENAI_LIMITS: MediaLimits = {
  name: 'OpenAI',
  base64: false,
  image: 20 * MB,
  total: { size: 50 * MB, of: 'images' },
  images: 500,
};

/** Gemini: 100 MB of inline data per request and 50 MB per PDF, measured as base64. */
export const GEMINI_LIMITS: MediaLimits = {
  name: 'Gemini',
  base64: true,
  pdf: 50 * MB,
  total: { size: 100 * MB, of: 'inline data' },
};

/** `size` as megabytes with one decimal, e.g. `6.1 MB`. */
function mb(size: number): string {
  return `${Number((size / MB).toFixed(1))} MB`;
}

/**
 * The running totals of one request against a provider's {@link MediaLimits}.
 * Made fresh for each request body.
 */
export class MediaBudget {
  private images = 0;
  private total = 0;

  constructor(readonly limits: MediaLimits) {}

  /**
   * Counts `part` into the request.
   * @returns why the part breaks a limit (for `mediaError`), or `undefined` when it fits.
   */
  take(part: MediaPart): string | undefined {
    const { name, base64 } = this.limits;
    const image = part.mediaType.startsWith('image/');
    if (image) this.images++;
    if (image && this.limits.images !== undefined && this.images > this.limits.images)
      return `it is image ${this.images} of the request; ${name} takes up to ${this.limits.images} images per request`;
    if (part.data === undefined) return undefined;
    const bytes = mediaByteLength(part.data);
    const size = base64 ? 4 * Math.ceil(bytes / 3) : bytes;
    const measure = base64 ? ' as base64' : '';
    const own = image
      ? this.limits.image
      : part.mediaType === 'application/pdf'
        ? this.limits.pdf
        : undefined;
    const kind = image ? 'images' : 'PDFs';
    if (own !== undefined && size > own)
      return `it is ${mb(size)}${measure}; ${name} takes ${kind} up to ${mb(own)}${measure}`;
    const total = this.limits.total;
    if (!total || (total.of === 'images' && !image)) return undefined;
    this.total += size;
    if (this.total <= total.size) return undefined;
    return `with it the request's ${total.of} come to ${mb(this.total)}${measure}; ${name} takes up to ${mb(total.size)}${measure} of ${total.of} per request`;
  }
}
