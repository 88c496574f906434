/**
 * A tool's return value as the text a model reads, cut to a size that cannot
 * flood the context window.
 * @module
 */

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
