/**
 * A tool's return value as the text a model reads, cut to a size that cannot
 * flood the context window, plus the images and files it returned.
 * @module
 */
import { mediaBase64, mediaPartProblem } from '../core/media.js';
import type { MediaPart, TextPart } from '../core/messages.js';

/** Default cap on what the model sees of one tool result, in characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;

/** Strings as they are; `undefined`/`null` as `''`; anything else as JSON (or `String()` when JSON fails). */
export function stringifyOutput(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Keeps the head (70% of `maxChars`) and the tail (20%) of `text` around a
 * marker naming how much was cut; errors and summaries tend to sit at either
 * end. Text within the limit is returned as it is.
 */
export function truncateOutput(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  let head = Math.floor(maxChars * 0.7);
  let tailStart = text.length - Math.floor(maxChars * 0.2);
  // Never split a surrogate pair: half an emoji is invalid UTF-16 to a provider.
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const cut = tailStart - head;
  const truncated = `${text.slice(0, head)}\n\n[... truncated ${cut} characters ...]\n\n${text.slice(tailStart)}`;
  // With a tiny limit the marker can outweigh the cut; the original is then the shorter answer.
  if (truncated.length >= text.length) return { text, truncated: false };
  return { text: truncated, truncated: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * What a tool returns to give the model images or files: the text it reads
 * (default none) and the parts, in order. A tool may also return one image or
 * file part, or an array of text and media parts.
 */
export interface ToolMediaResult {
  content?: string;
  attachments: MediaPart[];
}

/** A tool's return value read as text and attachments, or why its media parts are invalid. */
export type ToolOutput = { text: string; attachments?: MediaPart[] } | { invalid: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

// Objects of type image/file with a media type and bytes or a URL; other objects with such a `type`
// (a listing's `{ type: 'file', path }`) stay data.
function looksLikeMedia(value: unknown): boolean {
  return (
    isObject(value) &&
    (value.type === 'image' || value.type === 'file') &&
    typeof value.mediaType === 'string' &&
    ('data' in value || 'url' in value)
  );
}

function isMediaResult(value: unknown): value is ToolMediaResult {
  if (!isObject(value) || !Array.isArray(value.attachments)) return false;
  if (Object.keys(value).some((key) => key !== 'content' && key !== 'attachments')) return false;
  return (
    (value.content === undefined || typeof value.content === 'string') &&
    value.attachments.every(looksLikeMedia)
  );
}

function isPartList(value: unknown): value is Array<TextPart | MediaPart> {
  if (!Array.isArray(value) || !value.some(looksLikeMedia)) return false;
  return value.every(
    (item) =>
      looksLikeMedia(item) || (isObject(item) && item.type === 'text' && typeof item.text === 'string'),
  );
}

/**
 * A clean copy of a checked part: only the fields of the contract, bytes as
 * base64 (encoded once here, not on every request that resends them, and
 * plain JSON in saved conversations).
 */
function mediaOf(part: MediaPart): MediaPart {
  const copy: MediaPart = { type: part.type, mediaType: part.mediaType };
  if (part.data !== undefined) copy.data = mediaBase64(part.data);
  if (part.url !== undefined) copy.url = part.url;
  if (part.filename !== undefined) copy.filename = part.filename;
  return copy;
}

/**
 * Reads a tool's return value: a {@link ToolMediaResult}, an image or file
 * part, or an array of text and media parts give text (text parts joined by
 * newlines) and attachments; anything else is text ({@link stringifyOutput}).
 */
export function toolOutputOf(value: unknown): ToolOutput {
  let text: string;
  let parts: MediaPart[];
  if (isMediaResult(value)) {
    text = value.content ?? '';
    parts = value.attachments;
  } else if (looksLikeMedia(value)) {
    text = '';
    parts = [value as MediaPart];
  } else if (isPartList(value)) {
    text = value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    parts = value.filter((part): part is MediaPart => part.type !== 'text');
  } else {
    return { text: stringifyOutput(value) };
  }
  for (const [i, part] of parts.entries()) {
    const problem = mediaPartProblem(part);
    if (problem)
      return { invalid: `the tool returned an invalid ${part.type} (attachment ${i}): ${problem}` };
  }
  return parts.length > 0 ? { text, attachments: parts.map(mediaOf) } : { text };
}
