/**
 * A folded copy of a text for pattern detection that remembers where each of
 * its characters came from, so a match found in the folded form can be
 * neutralised in the original without rewriting anything else.
 * @module
 */
import { normalizeForMatching } from './normalize.js';

/** A text folded for detection, with a map back to the original. */
export interface FoldedText {
  /**
   * The text lower-cased, NFKC-folded, with diacritics, look-alike letters
   * and invisible (format) characters folded away. Line breaks and other
   * whitespace are kept, so line-start rules still work.
   */
  readonly text: string;
  /** The original `[start, end)` that the folded `[start, end)` (non-empty) came from. */
  span(start: number, end: number): [number, number];
}

// Printable ASCII and ordinary whitespace: folding is only lower-casing.
const NOT_PLAIN_ASCII = /[^\t\n\v\f\r -~]/;
const WHITESPACE = /^\s$/u;
const FORMAT = /^\p{Cf}$/u;

/**
 * Folds `text` for detection ({@link normalizeForMatching}, one code point at
 * a time). Plain ASCII, the common case, is only lower-cased and maps to
 * itself.
 *
 * ```ts
 * const f = foldForDetection('ＩＧＮＯＲＥ prev\u200bious');
 * f.text;          // 'ignore previous'
 * f.span(7, 15);   // [7, 16]: 'prev\u200bious' in the original
 * ```
 */
export function foldForDetection(text: string): FoldedText {
  if (!NOT_PLAIN_ASCII.test(text)) return { text: text.toLowerCase(), span: (start, end) => [start, end] };
  const chunks: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const cache = new Map<number, string>();
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    let out: string;
    if (cp < 0x80) {
      out = cp >= 65 && cp <= 90 ? String.fromCharCode(cp + 32) : text[i]!;
    } else {
      out = cache.get(cp) ?? foldCodePoint(text.slice(i, i + size));
      cache.set(cp, out);
    }
    for (let k = 0; k < out.length; k++) {
      starts.push(i);
      ends.push(i + size);
    }
    chunks.push(out);
    i += size;
  }
  return {
    text: chunks.join(''),
    span: (start, end) => [starts[start]!, ends[end - 1]!],
  };
}

function foldCodePoint(ch: string): string {
  if (WHITESPACE.test(ch)) return ' ';
  // Tag characters and other format controls render as nothing; `normalizeForMatching` keeps some of them.
  if (FORMAT.test(ch)) return '';
  return normalizeForMatching(ch);
}
