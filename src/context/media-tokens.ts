/**
 * Token estimates of images and files, by the rule of the provider that
 * reads them (docs/multimodal.md lists the rules and their sources). Images
 * are measured from their header bytes; only a prefix is decoded.
 * @module
 */
import { latin1Of, mediaByteLength, mediaPrefix } from '../core/media.js';
import type { MediaPart } from '../core/messages.js';
import { bareModelName } from './encodings.js';

/** Whose rule estimates images and PDF pages. */
export type MediaTokenRule = 'openai' | 'anthropic' | 'gemini';

/** Tokens of one image or file; a custom estimate replaces the built-in rules. */
export type MediaTokenEstimate = (part: MediaPart) => number;

interface Rule {
  image(size: { width: number; height: number } | undefined): number;
  pdfPage: number;
}

const RULES: Readonly<Record<MediaTokenRule, Rule>> = {
  // High detail: fit 2048², shortest side to 768, then 170 per 512-px tile plus 85.
  openai: {
    image(size) {
      if (!size) return 765;
      let { width, height } = fitWithin(size, 2048, 2048);
      const short = Math.min(width, height);
      if (short > 768) ({ width, height } = scale({ width, height }, 768 / short));
      return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
    },
    pdfPage: 1000,
  },
  // width × height / 750 after fitting the long edge to 1568 px.
  anthropic: {
    image(size) {
      if (!size) return 1600;
      const { width, height } = fitWithin(size, 1568, 1568);
      return Math.ceil((width * height) / 750);
    },
    pdfPage: 2250,
  },
  // 258 for an image within 384 px, else 258 per 768-px tile.
  gemini: {
    image(size) {
      if (!size || (size.width <= 384 && size.height <= 384)) return 258;
      return 258 * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
    },
    pdfPage: 258,
  },
};

/** Tokens of a file given by URL, whose size is unknown. */
export const URL_FILE_TOKENS = 1000;

// A typical page, for PDFs whose page objects cannot be counted (compressed object streams).
const BYTES_PER_PDF_PAGE = 50_000;

/** The rule for a model id: Claude → `anthropic`, Gemini → `gemini`, anything else `openai`. */
export function mediaTokenRule(model: string | undefined): MediaTokenRule {
  const name = model ? bareModelName(model) : '';
  if (name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('gemini')) return 'gemini';
  return 'openai';
}

/** Estimated tokens of `part` under `rule`. */
export function estimateMediaTokens(part: MediaPart, rule: MediaTokenRule): number {
  const r = RULES[rule];
  if (part.mediaType.startsWith('image/')) {
    return r.image(part.data === undefined ? undefined : imageSize(mediaPrefix(part.data, 128 * 1024)));
  }
  if (part.data === undefined) return URL_FILE_TOKENS;
  const bytes = mediaByteLength(part.data);
  if (part.mediaType === 'application/pdf') return r.pdfPage * pdfPages(part.data, bytes);
  if (isTextual(part.mediaType)) return Math.ceil(bytes / 4);
  // Audio and video: about a token per kilobyte (Gemini: 32 tokens a second of 32 KB/s WAV).
  return Math.max(1, Math.ceil(bytes / 1000));
}

function isTextual(mediaType: string): boolean {
  return mediaType.startsWith('text/') || /[/+](json|xml|csv|yaml)$/.test(mediaType);
}

function pdfPages(data: MediaPart['data'] & {}, bytes: number): number {
  const text = latin1Of(mediaPrefix(data, bytes));
  const pages = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  return pages > 0 ? pages : Math.max(1, Math.ceil(bytes / BYTES_PER_PDF_PAGE));
}

function fitWithin(size: { width: number; height: number }, maxWidth: number, maxHeight: number) {
  const factor = Math.min(1, maxWidth / size.width, maxHeight / size.height);
  return factor < 1 ? scale(size, factor) : size;
}

function scale(size: { width: number; height: number }, factor: number) {
  return {
    width: Math.max(1, Math.round(size.width * factor)),
    height: Math.max(1, Math.round(size.height * factor)),
  };
}

/** Width and height from a PNG, GIF, JPEG or WebP header, or `undefined` when they cannot be read. */
export function imageSize(head: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const has = (n: number) => head.length >= n;
  if (has(24) && head[0] === 0x89 && head[1] === 0x50)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (has(10) && head[0] === 0x47 && head[1] === 0x49) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (has(4) && head[0] === 0xff && head[1] === 0xd8) return jpegSize(head, view);
  if (has(30) && head[8] === 0x57 && head[9] === 0x45) return webpSize(head, view);
  return undefined;
}

// Walks the segments to the first start-of-frame marker, which holds the size.
function jpegSize(head: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < head.length) {
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

function webpSize(head: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  const chunk = String.fromCharCode(head[12]!, head[13]!, head[14]!, head[15]!);
  if (chunk === 'VP8 ')
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const width = 1 + (head[24]! | (head[25]! << 8) | (head[26]! << 16));
    const height = 1 + (head[27]! | (head[28]! << 8) | (head[29]! << 16));
    return { width, height };
  }
  return undefined;
}
