/**
 * What every adapter does with image and file parts before mapping them to
 * its wire format: check each is well formed and taken by the model, name
 * it in a `bad_request` {@link ModelError} when it is not (before anything is
 * sent), and write bytes as base64 or a `data:` URL.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import { describeMedia, mediaBase64, mediaByteLength, mediaPartProblem } from '../../core/media.js';
import type { MediaPart, ToolResultPart } from '../../core/messages.js';
import type { ErrorContext } from './errors.js';
import type { MediaBudget } from './media-limits.js';

/** Who maps the parts: the adapter and model, and the media types the model takes. */
export interface MediaContext extends ErrorContext {
  /** `ModelInfo.inputMediaTypes`; absent when the model takes whatever the adapter maps. */
  accepts?: readonly string[];
  /** The provider's size limits and this request's totals so far; absent when no limits are known. */
  budget?: MediaBudget;
}

/** Where a part of a user message sits, for error messages. */
export function userPartPath(message: number, part: number): string {
  return `messages[${message}].content[${part}]`;
}

/** Where an attachment of a tool result sits, for error messages. */
export function attachmentPath(message: number, result: ToolResultPart, index: number): string {
  return `messages[${message}] result of ${result.toolName || 'tool'} call ${result.toolCallId}, attachment ${index}`;
}

/** A part of a request, and where it sits (for error messages). */
export interface PlacedPart {
  part: MediaPart;
  /** Where it sits: {@link userPartPath} or {@link attachmentPath}. */
  where: string;
}

/** The `bad_request` error for a part the adapter or the model cannot take. */
export function mediaError(ctx: MediaContext, { part, where }: PlacedPart, why: string): ModelError {
  const id = `${ctx.provider}:${ctx.model}`;
  const what = mediaPartProblem(part) === undefined ? describeMedia(part) : `[${String(part.type)}]`;
  return new ModelError('bad_request', `${id} cannot take ${where} ${what}: ${why}`, { model: id });
}

function matches(pattern: string, mediaType: string): boolean {
  if (pattern === '*/*' || pattern === mediaType) return true;
  return pattern.endsWith('/*') && mediaType.startsWith(pattern.slice(0, -1));
}

/**
 * Checks that `part` is well formed, not empty, taken by the model, and
 * within the provider's size limits (`ctx.budget`, which counts it).
 * @throws ModelError `bad_request` naming the part otherwise.
 */
export function checkMedia(part: MediaPart, where: string, ctx: MediaContext): void {
  const problem = mediaPartProblem(part);
  if (problem) throw mediaError(ctx, { part, where }, problem);
  // Every provider refuses an empty image or file, after the request was paid for.
  if (part.data !== undefined && mediaByteLength(part.data) === 0)
    throw mediaError(ctx, { part, where }, 'it is empty (0 bytes)');
  const accepts = ctx.accepts;
  if (accepts && !accepts.some((pattern) => matches(pattern, part.mediaType))) {
    const taken = accepts.length > 0 ? accepts.join(', ') : 'no images or files';
    throw mediaError(ctx, { part, where }, `the model takes ${taken} (ModelInfo.inputMediaTypes)`);
  }
  const over = ctx.budget?.take(part);
  if (over) throw mediaError(ctx, { part, where }, over);
}

/** The part's bytes as base64 text (the part must have `data`). */
export function base64Of(part: MediaPart): string {
  return mediaBase64(part.data ?? '');
}

/** The part's bytes as a `data:` URL (the part must have `data`). */
export function dataURL(part: MediaPart): string {
  return `data:${part.mediaType};base64,${base64Of(part)}`;
}
