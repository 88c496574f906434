/** The counter's own byte-pair counting gives exactly js-tiktoken's counts, without its per-call set-up. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCounter, loadEncoding } from '../../src/context/encodings.js';

const samples = [
  '',
  'The quick brown fox jumps over the lazy dog, twice.',
  '{"path":"src/item-42.ts","query":"a=1&b=2"}',
  "They're here, aren't they? I'LL see; you'd know.",
  'export const item7 = { name: "item 7", enabled: true, retries: 3 };\n'.repeat(3),
  '    indented\n\n\n\ttabs\r\n  trailing   ',
  '1234567890 3.14159 -42 1e10 0x1F',
  'Ünïcödé façade naïve café — “quotes” and ‘apostrophes’',
  '日本語のテキストと中文文本，还有한국어 텍스트.',
  'emoji 👩‍👩‍👧‍👦 🚀🔥 ✨ and flags 🇫🇷🇯🇵',
  'a <|endoftext|> b <|endofprompt|> c',
  'lone surrogate \ud800 here',
  'x'.repeat(300),
  '!!!???...,,,;;;:::',
  'https://example.com/a/b?c=d#frag',
];

describe('token counts', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`equal js-tiktoken's for ${encoding} on varied text`, async () => {
      const [encoder, counter] = await Promise.all([loadEncoding(encoding), loadCounter(encoding)]);
      for (const text of samples) expect(counter.count(text), text).toBe(encoder.encode(text, [], []).length);
    });

    it(`equal js-tiktoken's for ${encoding} on arbitrary strings`, async () => {
      const [encoder, counter] = await Promise.all([loadEncoding(encoding), loadCounter(encoding)]);
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
          expect(counter.count(text)).toBe(encoder.encode(text, [], []).length);
        }),
        { numRuns: 300, seed: 18 },
      );
    });
  }

  it('counts a text the same the second time, from the memo of merged pieces', async () => {
    const counter = await loadCounter('o200k_base');
    const text = 'Supercalifragilisticexpialidocious antidisestablishmentarianism';
    expect(counter.count(text)).toBe(counter.count(text));
  });
});
