/**
 * Images and files as Gemini parts: `inlineData` for bytes, `fileData` for a
 * URL (a Files API URI, a Cloud Storage URI, or a web URL where the API
 * fetches them). A tool result's attachments travel as parts right after the
 * turn's `functionResponse` parts, in the same user content.
 * @module
 */
import type { MediaPart, ToolResultPart, UserMessage } from '../../core/messages.js';
import { attachmentPath, base64Of, checkMedia, type MediaContext, userPartPath } from '../shared/media.js';
import type { GeminiPart } from './wire.js';

/** One image or file as a part. */
export function geminiMediaPart(part: MediaPart, where: string, ctx: MediaContext): GeminiPart {
  checkMedia(part, where, ctx);
  if (part.url !== undefined) return { fileData: { mimeType: part.mediaType, fileUri: part.url } };
  return { inlineData: { mimeType: part.mediaType, data: base64Of(part) } };
}

/** The parts of a user message: text (empty text left out) and media, in order. */
export function userParts(message: UserMessage, index: number, ctx: MediaContext): GeminiPart[] {
  if (typeof message.content === 'string') return message.content ? [{ text: message.content }] : [];
  const parts: GeminiPart[] = [];
  message.content.forEach((part, i) => {
    if (part.type !== 'text') parts.push(geminiMediaPart(part, userPartPath(index, i), ctx));
    else if (part.text) parts.push({ text: part.text });
  });
  return parts;
}

/** The attachments of tool results as parts, in result order. */
export function attachmentParts(
  results: readonly ToolResultPart[],
  index: number,
  ctx: MediaContext,
): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const result of results) {
    result.attachments?.forEach((part, i) => {
      parts.push(geminiMediaPart(part, attachmentPath(index, result, i), ctx));
    });
  }
  return parts;
}
