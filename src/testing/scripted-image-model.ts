/**
 * `ScriptedImageModel`: an {@link ImageModel} that replies from a script,
 * records every request, and fails clearly on an unexpected call.
 * @module
 */

import { AbortError } from '../core/errors.js';
import type {
  GeneratedImage,
  ImageCallOptions,
  ImageModel,
  ImageRequest,
  ImageResponse,
} from '../core/image-model.js';
import { ScriptError } from './scripted-model.js';

/** A 1×1 transparent PNG, base64: a real image for scripts and examples. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** One scripted reply: images, or an error to throw. */
export type ImageScriptStep = { images: GeneratedImage[] } | { error: Error };

/** A step, or a function computing one from the request. */
export type ImageScriptEntry =
  | ImageScriptStep
  | ((request: ImageRequest, callIndex: number) => ImageScriptStep | Promise<ImageScriptStep>);

/**
 * A scripted image model. Without a script every call answers one
 * {@link TINY_PNG_BASE64} image per requested `n`.
 *
 * ```ts
 * const images = new ScriptedImageModel([{ images: [{ mediaType: 'image/png', data: TINY_PNG_BASE64 }] }]);
 * // ...run the image_generation skill...
 * expect(images.requests[0].prompt).toContain('lighthouse');
 * ```
 */
export class ScriptedImageModel implements ImageModel {
  readonly id: string;
  /** Every request received, in order. */
  readonly requests: ImageRequest[] = [];
  private readonly script: ImageScriptEntry[] | undefined;
  private next = 0;

  constructor(script?: ImageScriptEntry[], options: { id?: string } = {}) {
    this.script = script ? [...script] : undefined;
    this.id = options.id ?? 'scripted:image';
  }

  /** Number of calls made so far. */
  get calls(): number {
    return this.requests.length;
  }

  /** Throws unless every scripted step was used. */
  assertConsumed(): void {
    const total = this.script?.length ?? 0;
    if (this.next < total) {
      throw new ScriptError(
        'unconsumed',
        `${this.id}: ${total - this.next} scripted step(s) were never requested`,
      );
    }
  }

  async generate(request: ImageRequest, options: ImageCallOptions = {}): Promise<ImageResponse> {
    if (options.signal?.aborted) throw new AbortError(options.signal.reason);
    const index = this.requests.length;
    this.requests.push(structuredClone(request));
    const step = await this.stepFor(request, index);
    if ('error' in step) throw step.error;
    return { images: step.images.map((image) => ({ ...image })) };
  }

  private async stepFor(request: ImageRequest, index: number): Promise<ImageScriptStep> {
    if (!this.script) {
      const image = { mediaType: 'image/png', data: TINY_PNG_BASE64 };
      return { images: Array.from({ length: request.n ?? 1 }, () => image) };
    }
    const entry = this.script[this.next];
    if (!entry) {
      throw new ScriptError(
        'unexpected_call',
        `${this.id}: call ${index + 1} has no scripted step (the script has ${this.script.length})`,
      );
    }
    this.next++;
    return typeof entry === 'function' ? entry(request, index) : entry;
  }
}
