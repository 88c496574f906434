/**
 * Images and files in messages: constructors, base64 without `node:`
 * modules (the core runs in browsers), media-type sniffing, and the short
 * descriptions events, summaries and placeholders use instead of the bytes.
 * @module
 */
import { ConfigError } from './errors.js';
import type { FilePart, ImagePart, MediaData, MediaPart } from './messages.js';

/** What events and placeholders say about a part: never its bytes. */
export interface MediaSummary {
  type: 'image' | 'file';
  mediaType: string;
  /** Size of the bytes; absent for a part given by URL. */
  bytes?: number;
  url?: string;
  filename?: string;
}

/** Options of {@link imagePart} and {@link filePart}. */
export interface MediaPartOptions {
  filename?: string;
}

// Chunks keep `String.fromCharCode(...)` under engines' argument limits.
const CHUNK = 0x8000;

/** `bytes` as a string of one character (code 0–255) per byte. */
export function latin1Of(bytes: Uint8Array): string {
  // Joined once: growing one string chunk by chunk is four times slower on megabytes.
  const chunks: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    chunks.push(String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]));
  }
  return chunks.join('');
}

/** Base64 of `bytes` (standard alphabet, padded). */
export function toBase64(bytes: Uint8Array): string {
  return btoa(latin1Of(bytes));
}

/**
 * The bytes of base64 text (whitespace ignored).
 * @throws ConfigError when `text` is not base64.
 */
export function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text.replace(/\s/g, ''));
  } catch {
    throw new ConfigError('Invalid base64 data');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `data` as base64 text: bytes are encoded, text is taken as the base64 it must be. */
export function mediaBase64(data: MediaData): string {
  return typeof data === 'string' ? data : toBase64(data);
}

/** Byte size of `data`; for base64 text, computed from its length without decoding. */
export function mediaByteLength(data: MediaData): number {
  if (typeof data !== 'string') return data.byteLength;
  let length = 0;
  for (let i = 0; i < data.length; i++) if (!isSpace(data.charCodeAt(i))) length++;
  const trimmed = data.trimEnd();
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The first `count` bytes of `data` (fewer when it is shorter), decoding only that much base64. */
export function mediaPrefix(data: MediaData, count: number): Uint8Array {
  if (typeof data !== 'string') return data.subarray(0, count);
  const chars = Math.ceil(count / 3) * 4;
  // Only the head is cleaned of line breaks: the rest may be megabytes.
  const head = data
    .slice(0, chars * 2)
    .replace(/\s/g, '')
    .slice(0, chars);
  try {
    return fromBase64(head).subarray(0, count);
  } catch {
    return new Uint8Array(0);
  }
}

/** Type guard: an `image` or `file` part. */
export function isMediaPart(part: { type: string }): part is MediaPart {
  return part.type === 'image' || part.type === 'file';
}

/**
 * What is wrong with a value meant as an image or file part, or `undefined`
 * when it is a valid one: `mediaType` must be `type/subtype`, and exactly one
 * of `data` (bytes or base64 text without a `data:` prefix) and `url`.
 */
export function mediaPartProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return 'not an object';
  const p = part as Partial<ImagePart> & { type?: unknown };
  if (p.type !== 'image' && p.type !== 'file') return `type must be 'image' or 'file'`;
  if (typeof p.mediaType !== 'string' || !/^[\w.+-]+\/[\w.+*-]+/.test(p.mediaType)) {
    return `mediaType must be a media type such as image/png, got ${JSON.stringify(p.mediaType)}`;
  }
  if ((p.data === undefined) === (p.url === undefined)) return 'needs exactly one of data and url';
  if (p.filename !== undefined && typeof p.filename !== 'string') return 'filename must be a string';
  if (p.url !== undefined) return urlProblem(p.url);
  if (p.data instanceof Uint8Array) return undefined;
  if (typeof p.data !== 'string') return 'data must be a Uint8Array or base64 text';
  if (p.data.startsWith('data:'))
    return 'data must be base64 without a data: prefix (pass the data URL to imagePart/filePart)';
  return /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(p.data) ? undefined : 'data is not base64';
}

function urlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string') return 'url must be a string';
  try {
    new URL(url);
    return undefined;
  } catch {
    return `url is not a URL: ${JSON.stringify(url.slice(0, 80))}`;
  }
}

/** A short description for events and logs: type, media type, size or URL, filename. */
export function mediaSummary(part: MediaPart): MediaSummary {
  const summary: MediaSummary = { type: part.type, mediaType: part.mediaType };
  if (part.data !== undefined) summary.bytes = mediaByteLength(part.data);
  if (part.url !== undefined) summary.url = part.url;
  if (part.filename !== undefined) summary.filename = part.filename;
  return summary;
}

/**
 * The placeholder text that stands for a part where its bytes cannot go
 * (summaries, text-only renderings): `[image: image/png, chart.png, 4033 bytes]`.
 */
export function describeMedia(part: MediaPart): string {
  const fields: string[] = [part.mediaType];
  if (part.filename) fields.push(part.filename);
  if (part.data !== undefined) fields.push(`${mediaByteLength(part.data)} bytes`);
  else if (part.url !== undefined) fields.push(part.url);
  return `[${part.type}: ${fields.join(', ')}]`;
}

/**
 * An image part from bytes, base64 text, a `data:` URL or an `http(s)` URL.
 * `mediaType` may be left out when the bytes or the data URL tell it.
 * @throws ConfigError when the media type cannot be known or the part is invalid.
 */
export function imagePart(
  source: MediaData | URL,
  mediaType?: string,
  options: MediaPartOptions = {},
): ImagePart {
  return mediaPart('image', source, { mediaType, filename: options.filename }) as ImagePart;
}

/**
 * A file part (PDF, text, audio…) from bytes, base64 text, a `data:` URL or
 * an `http(s)` URL. `mediaType` may be left out when the bytes, the data URL
 * or the filename tell it.
 * @throws ConfigError when the media type cannot be known or the part is invalid.
 */
export function filePart(
  source: MediaData | URL,
  mediaType?: string,
  options: MediaPartOptions = {},
): FilePart {
  return mediaPart('file', source, { mediaType, filename: options.filename }) as FilePart;
}

/** What the caller says about a part: each left out is guessed from the source when it can be. */
interface PartLabels extends MediaPartOptions {
  mediaType: string | undefined;
}

function mediaPart(type: MediaPart['type'], source: MediaData | URL, options: PartLabels): MediaPart {
  const { mediaType } = options;
  let part: MediaPart;
  const text = source instanceof URL ? source.href : source;
  if (typeof text === 'string' && text.startsWith('data:')) {
    const parsed = parseDataURL(text);
    part = { type, mediaType: mediaType ?? parsed.mediaType, data: parsed.data };
  } else if (typeof text === 'string' && text.includes(':')) {
    // Base64 has no colon: text with one is a URL.
    const guessed = mediaType ?? mediaTypeFromName(options.filename ?? pathOf(text));
    part = { type, mediaType: guessed ?? '', url: text };
  } else {
    const data = text as MediaData;
    const guessed =
      mediaType ?? sniffMediaType(mediaPrefix(data, 16)) ?? mediaTypeFromName(options.filename ?? '');
    part = { type, mediaType: guessed ?? '', data };
  }
  if (options.filename !== undefined) part.filename = options.filename;
  const problem = mediaPartProblem(part);
  if (problem) throw new ConfigError(`Invalid ${type} part: ${problem}`);
  return part;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function parseDataURL(url: string): { mediaType: string; data: string } {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) throw new ConfigError('Invalid data: URL');
  const base64 = /;base64$/i.test(match[2] ?? '');
  const payload = match[3] ?? '';
  const data = base64 ? payload : toBase64(new TextEncoder().encode(decodeURIComponent(payload)));
  return { mediaType: match[1] || 'text/plain', data };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  css: 'text/css',
  js: 'text/javascript',
  cjs: 'text/javascript',
  mjs: 'text/javascript',
  py: 'text/x-python',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The media type a file name's extension implies, or `undefined` for an unknown extension. */
export function mediaTypeFromName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0 || dot < name.lastIndexOf('/')) return undefined;
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()];
}

/** A file extension for `mediaType` (without the dot), for naming a file that has no name. */
export function extensionOf(mediaType: string): string {
  for (const [extension, type] of Object.entries(EXTENSIONS)) if (type === mediaType) return extension;
  return 'bin';
}

function startsWith(bytes: Uint8Array, signature: string, at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature.charCodeAt(i)) return false;
  return true;
}

/**
 * The media type the first bytes of a file announce (PNG, JPEG, GIF, WebP,
 * HEIC, PDF, WAV, MP3, Ogg, FLAC, MP4, WebM), or `undefined`. 16 bytes suffice.
 */
export function sniffMediaType(head: Uint8Array): string | undefined {
  if (startsWith(head, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (startsWith(head, '\xff\xd8\xff')) return 'image/jpeg';
  if (startsWith(head, 'GIF8')) return 'image/gif';
  if (startsWith(head, '%PDF-')) return 'application/pdf';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'image/webp';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WAVE', 8)) return 'audio/wav';
  if (startsWith(head, 'ID3') || (head[0] === 0xff && (head[1]! & 0xf6) === 0xf2)) return 'audio/mpeg';
  if (startsWith(head, 'OggS')) return 'audio/ogg';
  if (startsWith(head, 'fLaC')) return 'audio/flac';
  if (startsWith(head, '\x1a\x45\xdf\xa3')) return 'video/webm';
  if (startsWith(head, 'ftyp', 4)) {
    if (startsWith(head, 'heic', 8) || startsWith(head, 'heix', 8)) return 'image/heic';
    return startsWith(head, 'M4A', 8) ? 'audio/mp4' : 'video/mp4';
  }
  return undefined;
}

/**
 * A JSON replacer that writes `Uint8Array` values (Node `Buffer`s included)
 * as base64 text, so media bytes survive `JSON.stringify` as plain JSON.
 */
export function base64Replacer(this: unknown, key: string, value: unknown): unknown {
  // `Buffer#toJSON` runs before the replacer: the holder still has the original.
  const raw = (this as Record<string, unknown> | undefined)?.[key];
  return raw instanceof Uint8Array ? toBase64(raw) : value;
}
