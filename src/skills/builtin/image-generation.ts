/**
 * `image_generation` (seed 002): images from a prompt over any
 * {@link ImageModel}, written into the workspace and returned as artifacts
 * (and inline as image parts when small). Images the model returns by URL are
 * downloaded, since provider URLs expire.
 * @module
 */
import { z } from 'zod/v4';
import { errorMessage } from '../../core/errors.js';
import type { GeneratedImage, ImageModel } from '../../core/image-model.js';
import { extensionOf, fromBase64 } from '../../core/media.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';
import { BuiltinSkillError } from './errors.js';
import {
  artifactSchema,
  imagePartSchema,
  inlineImage,
  invocationDir,
  requireSandbox,
  workspacePath,
} from './support.js';

/** Options of {@link imageGenerationSkill}. */
export interface ImageGenerationOptions {
  /** The image model (e.g. `createOpenAIImageModel('gpt-image-1')`, or a `ScriptedImageModel`). */
  model: ImageModel;
  /** Downloads images returned by URL. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Output of `image_generation`. */
export const imageGenerationOutputSchema = z.object({
  prompt: z.string(),
  model: z.string(),
  /** The image files, relative to the workspace. */
  artifacts: z.array(artifactSchema),
  /** The images small enough to inline. */
  images: z.array(imagePartSchema),
  /** Prompts the provider rewrote, per image (empty when it did not). */
  revisedPrompts: z.array(z.string()),
});

/** `image_generation` over `options.model`. */
export function imageGenerationSkill(options: ImageGenerationOptions) {
  return defineSkill({
    id: 'image_generation',
    name: 'Image generation',
    description: 'Generate images from a text prompt; the images are saved as files in the workspace',
    category: 'creative',
    tags: ['image', 'generation'],
    risk: 'moderate',
    parameters: z.object({
      prompt: z.string().trim().min(1).describe('What the image shows, and its style'),
      n: z.number().int().min(1).max(4).default(1).describe('How many images'),
      size: z.string().optional().describe('WIDTHxHEIGHT, e.g. 1024x1024'),
      quality: z.string().optional().describe("The provider's quality setting (low, high, hd…)"),
      dir: z.string().optional().describe('Directory for the files; default images/<id>'),
    }),
    output: imageGenerationOutputSchema,
    async run({ prompt, n, size, quality, dir }, ctx) {
      const sandbox = requireSandbox(ctx);
      const target = dir === undefined ? invocationDir(ctx, 'images') : workspacePath(ctx, dir);
      const response = await skillStage(
        ctx,
        { name: 'generate', detail: `${n} image(s) on ${options.model.id}` },
        () => options.model.generate({ prompt, n, size, quality }, { signal: ctx.signal }),
      );
      if (response.usage) {
        ctx.emit.emit('usage', {
          model: options.model.id,
          usage: response.usage,
          total: { ...response.usage },
        });
      }
      return skillStage(ctx, { name: 'save', detail: target }, async () => {
        const artifacts = [];
        const images = [];
        for (const [i, image] of response.images.entries()) {
          const bytes = await bytesOf(image, options.fetch ?? globalThis.fetch, ctx);
          const path = `${target}/image-${i + 1}.${extensionOf(image.mediaType)}`;
          await sandbox.writeFile(path, bytes);
          const artifact = { path, mediaType: image.mediaType, size: bytes.length };
          artifacts.push(artifact);
          const inline = await inlineImage(sandbox, artifact);
          if (inline) images.push(inline);
        }
        const revisedPrompts = response.images.flatMap((image) => image.revisedPrompt ?? []);
        return { prompt, model: options.model.id, artifacts, images, revisedPrompts };
      });
    },
  });
}

/** The image's bytes: its data, or its URL downloaded. @throws BuiltinSkillError `download_failed`. */
async function bytesOf(
  image: GeneratedImage,
  fetchImpl: typeof fetch,
  ctx: SkillContext,
): Promise<Uint8Array> {
  if (image.data !== undefined) return typeof image.data === 'string' ? fromBase64(image.data) : image.data;
  const url = image.url ?? '';
  try {
    const response = await fetchImpl(url, { signal: ctx.signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    throw new BuiltinSkillError(
      'download_failed',
      ctx.skillId,
      `Cannot download ${url}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
}
