/**
 * Partial objects only ever grow: for any JSON answer streamed in any
 * chunks, each value reported extends the one before (no member appears and
 * then vanishes, no value changes type, strings only lengthen), the last one
 * is `JSON.parse` of the whole text, and the text is read once.
 */
import { JSONParser } from '@streamparser/json';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyUsage } from '../../src/core/usage.js';
import { type ModelStreamPart, parsePartialJson, watchPartialObject } from '../../src/model/index.js';

/**
 * Whether `next` extends `prev`. Only the member written last (`open`) may
 * still change: its string may lengthen, its number take more digits, and
 * its containers grow.
 */
function grows(prev: unknown, next: unknown, open: boolean): boolean {
  if (Array.isArray(prev)) {
    if (!Array.isArray(next) || next.length < prev.length) return false;
    return prev.every((item, i) => grows(item, next[i], open && i === prev.length - 1));
  }
  if (prev !== null && typeof prev === 'object') {
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return false;
    const keys = Object.keys(prev);
    const nextKeys = Object.keys(next);
    if (keys.some((key, i) => nextKeys[i] !== key)) return false;
    const after = next as Record<string, unknown>;
    return keys.every((key, i) =>
      grows((prev as Record<string, unknown>)[key], after[key], open && i === keys.length - 1),
    );
  }
  if (typeof prev === 'string')
    return typeof next === 'string' && (open ? next.startsWith(prev) : next === prev);
  if (typeof prev === 'number') return typeof next === 'number' && (open || next === prev);
  return Object.is(prev, next);
}

/** Every successive value grows from the one before; the message names the first pair that does not. */
function expectMonotone(values: unknown[]): void {
  for (let i = 1; i < values.length; i++) {
    const pair = `${JSON.stringify(values[i - 1])} -> ${JSON.stringify(values[i])}`;
    expect(grows(values[i - 1], values[i], true), pair).toBe(true);
  }
}

function stream(chunks: string[]): ModelStreamPart[] {
  return [
    ...chunks.map((delta): ModelStreamPart => ({ type: 'text-delta', delta })),
    { type: 'finish', finishReason: 'stop', usage: emptyUsage() },
  ];
}

function watchAll(chunks: string[]): unknown[] {
  const seen: unknown[] = [];
  const watch = watchPartialObject((value) => seen.push(value));
  for (const part of stream(chunks)) watch(part);
  return seen;
}

/** `text` cut at the given positions. */
function cut(text: string, at: number[]): string[] {
  const bounds = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const to of [...bounds, text.length]) {
    if (to > from) chunks.push(text.slice(from, to));
    from = Math.max(from, to);
  }
  return chunks;
}

// Answers are objects or arrays, with keys and strings full of JSON punctuation.
const punctuated = fc.string({
  unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'a', '1', 'é', '😀'),
});
const leaf = fc.oneof(
  punctuated,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { value: jsonValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(punctuated, tie('value'), { maxKeys: 4 }),
}));
const answer = fc
  .tuple(
    fc.oneof(fc.array(jsonValue, { maxLength: 4 }), fc.dictionary(punctuated, jsonValue, { maxKeys: 4 })),
    fc.nat(2),
  )
  .map(([value, indent]) => JSON.stringify(value, null, indent));

describe('partial objects grow monotonically', () => {
  it('over 1-character deltas, ending with JSON.parse of the whole text', () => {
    fc.assert(
      fc.property(answer, (text) => {
        const seen = watchAll([...text]);
        expectMonotone(seen);
        expect(seen.at(-1)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('over deltas cut anywhere, ending with JSON.parse of the whole text', () => {
    fc.assert(
      fc.property(answer, fc.array(fc.nat(), { maxLength: 40 }), (text, at) => {
        const seen = watchAll(cut(text, at));
        expectMonotone(seen);
        expect(seen.at(-1)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('as parsePartialJson reads each prefix of the text', () => {
    fc.assert(
      fc.property(answer, (text) => {
        const values: unknown[] = [];
        for (let end = 1; end <= text.length; end++) {
          const parsed = parsePartialJson(text.slice(0, end));
          if (parsed) values.push(parsed.value);
          else expect(values, text.slice(0, end)).toEqual([]);
        }
        expectMonotone(values);
        expect(values.at(-1)).toEqual(JSON.parse(text));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a brace inside an unfinished string out of the structure', () => {
    const text = '{"items": ["a", "b{c", "d"], "note": "x, \\"y\\": [1"}';
    const values: unknown[] = [];
    for (let end = 1; end <= text.length; end++)
      values.push(parsePartialJson(text.slice(0, end))?.value ?? {});
    expectMonotone(values);
    expect(parsePartialJson('{"items": ["a", "b{')).toEqual({ value: { items: ['a', 'b{'] } });
    expect(parsePartialJson('{"note": "x, \\"y\\": [1')).toEqual({ value: { note: 'x, "y": [1' } });
  });
});

describe('partial objects around the JSON', () => {
  it('ignore a closing code fence and keep what was read before text that is not JSON', () => {
    const fenced = 'Here:\n```json\n{"a": [1, {"b": "c"}]}\n```\nDone.';
    expect(watchAll(cut(fenced, [3, 17, 30, 36])).at(-1)).toEqual({ a: [1, { b: 'c' }] });
    expect(parsePartialJson(fenced)).toEqual({ value: { a: [1, { b: 'c' }] } });
    expect(parsePartialJson('{"a": [1, 2,]')).toEqual({ value: { a: [1, 2] } });
    expect(watchAll([...'{"a": "x", // note\n "b": 2}']).at(-1)).toEqual({ a: 'x' });
  });
});

describe('partial objects read the stream once', () => {
  afterEach(() => vi.restoreAllMocks());

  it('feeds each character of a 1 MB answer in 1-character deltas to the parser exactly once', () => {
    const items = Array.from({ length: 13_000 }, (_, i) => ({
      id: i,
      name: `item ${i} {"x": [${i}]}`,
      tags: ['a', 'b'],
      ok: i % 2 === 0,
    }));
    const text = JSON.stringify({ items, note: 'n'.repeat(100_000) });
    expect(text.length).toBeGreaterThan(1_000_000);
    let written = 0;
    const write = JSONParser.prototype.write;
    vi.spyOn(JSONParser.prototype, 'write').mockImplementation(function (this: JSONParser, chunk) {
      written += typeof chunk === 'string' ? chunk.length : 0;
      return write.call(this, chunk);
    });
    let reported = 0;
    let last: unknown;
    const watch = watchPartialObject((value) => {
      reported += JSON.stringify(value).length;
      last = value;
    });
    for (let i = 0; i < text.length; i++) watch({ type: 'text-delta', delta: text[i]! });
    watch({ type: 'finish', finishReason: 'stop', usage: emptyUsage() });
    // The text is never re-read from its start: the parser sees each character once.
    expect(written).toBe(text.length);
    // Copies handed out grow geometrically apart, so all of them together stay a small multiple of the text.
    expect(reported).toBeLessThan(20 * text.length);
    expect(last).toEqual(JSON.parse(text));
  });
});
