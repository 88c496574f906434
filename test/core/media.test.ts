import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import {
  base64Replacer,
  describeMedia,
  filePart,
  fromBase64,
  imagePart,
  mediaByteLength,
  mediaPartProblem,
  mediaSummary,
  sniffMediaType,
  toBase64,
} from '../../src/core/media.js';

const PNG_HEAD = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('media helpers', () => {
  it('round-trips bytes through base64 without node: modules, large inputs included', () => {
    const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 7) % 256);
    const text = toBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(fromBase64(text)).toEqual(bytes);
    expect(mediaByteLength(text)).toBe(100_003);
    expect(mediaByteLength(`${text.slice(0, 40)}\n${text.slice(40)}`)).toBe(100_003);
    expect(() => fromBase64('not base64!')).toThrow(ConfigError);
  });

  it('sniffs media types from the first bytes', () => {
    const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    expect(sniffMediaType(PNG_HEAD)).toBe('image/png');
    expect(sniffMediaType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMediaType(ascii('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMediaType(ascii('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffMediaType(ascii('RIFF\0\0\0\0WAVEfmt '))).toBe('audio/wav');
    expect(sniffMediaType(ascii('hello world'))).toBeUndefined();
  });

  it('builds parts from bytes (type sniffed), base64, data URLs and URLs', () => {
    expect(imagePart(PNG_HEAD)).toEqual({ type: 'image', mediaType: 'image/png', data: PNG_HEAD });
    expect(imagePart('data:image/gif;base64,R0lGODlh')).toEqual({
      type: 'image',
      mediaType: 'image/gif',
      data: 'R0lGODlh',
    });
    expect(filePart(new URL('https://example.com/doc.pdf'))).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      url: 'https://example.com/doc.pdf',
    });
    expect(filePart('aGk=', 'text/plain', { filename: 'hi.txt' })).toMatchObject({ filename: 'hi.txt' });
    expect(() => filePart('aGk=')).toThrow(/mediaType must be/);
  });

  it('says what is wrong with a malformed part', () => {
    expect(mediaPartProblem({ type: 'image', mediaType: 'image/png' })).toBe(
      'needs exactly one of data and url',
    );
    expect(mediaPartProblem({ type: 'image', mediaType: 'image/png', data: 'a b c ===' })).toBe(
      'data is not base64',
    );
    expect(mediaPartProblem({ type: 'image', mediaType: 'image/png', url: 'nope' })).toContain('not a URL');
  });

  it('describes parts by media type, name and size, never their bytes', () => {
    const part = { type: 'image' as const, mediaType: 'image/png', data: PNG_HEAD, filename: 'a.png' };
    expect(describeMedia(part)).toBe('[image: image/png, a.png, 12 bytes]');
    expect(mediaSummary(part)).toEqual({
      type: 'image',
      mediaType: 'image/png',
      bytes: 12,
      filename: 'a.png',
    });
  });

  it('writes bytes, Node Buffers included, as base64 in JSON', () => {
    const state = { a: Uint8Array.from([1, 2, 3]), b: Buffer.from([4, 5]), c: 'x' };
    expect(JSON.parse(JSON.stringify(state, base64Replacer))).toEqual({ a: 'AQID', b: 'BAU=', c: 'x' });
  });
});
