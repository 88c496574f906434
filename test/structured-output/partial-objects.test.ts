/**
 * Partial objects while a structured answer streams: `parsePartialJson` on
 * JSON cut anywhere, the watcher's parse budget on tiny deltas, and
 * `partial_object` events from an Executor into the progress store.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import { emptyUsage } from '../../src/core/usage.js';
import { parsePartialJson } from '../../src/model/partial-json.js';
import { PARTIAL_PARSE_EVERY, watchPartialObject } from '../../src/model/partial-object.js';
import type { ModelStreamPart } from '../../src/model/types.js';
import { createProgressStore } from '../../src/state/progress-store.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const ANSWER = {
  title: 'Quarterly report',
  figures: [12.5, 40, -3],
  approved: true,
  owner: { name: 'Ada', team: null },
};
const JSON_TEXT = JSON.stringify(ANSWER, null, 1);

/** `text` as deltas of 1, 2 and 3 characters in turn. */
function tinyChunks(text: string): string[] {
  const chunks: string[] = [];
  for (let i = 0, size = 1; i < text.length; i += size, size = (size % 3) + 1)
    chunks.push(text.slice(i, i + size));
  return chunks;
}

/** Whether `partial` can grow into `whole`: the same keys and types, strings and numbers cut short. */
function leadsTo(partial: unknown, whole: unknown): boolean {
  if (typeof partial === 'string' || typeof partial === 'number') {
    return typeof whole === typeof partial && String(whole).startsWith(String(partial));
  }
  if (Array.isArray(partial)) {
    return (
      Array.isArray(whole) && partial.length <= whole.length && partial.every((v, i) => leadsTo(v, whole[i]))
    );
  }
  if (partial && typeof partial === 'object') {
    if (!whole || typeof whole !== 'object') return false;
    const full = whole as Record<string, unknown>;
    return Object.entries(partial).every(([key, value]) => key in full && leadsTo(value, full[key]));
  }
  return partial === whole;
}

function deltas(text: string): ModelStreamPart[] {
  return [
    ...tinyChunks(text).map((delta): ModelStreamPart => ({ type: 'text-delta', delta })),
    { type: 'finish', finishReason: 'stop', usage: emptyUsage() },
  ];
}

describe('parsePartialJson', () => {
  it('completes a value cut inside a string, an array or a nested object', () => {
    expect(parsePartialJson('{"title": "Quart')).toEqual({ value: { title: 'Quart' } });
    expect(parsePartialJson('{"figures": [12.5, 4')).toEqual({ value: { figures: [12.5, 4] } });
    expect(parsePartialJson('{"owner": {"name": "Ad')).toEqual({ value: { owner: { name: 'Ad' } } });
  });

  it('leaves out a key still being written and a literal not yet whole', () => {
    expect(parsePartialJson('{"title": "Q", "fig')).toEqual({ value: { title: 'Q' } });
    expect(parsePartialJson('{"title": "Q", "figures":')).toEqual({ value: { title: 'Q' } });
    expect(parsePartialJson('{"approved": tr')).toEqual({ value: {} });
    expect(parsePartialJson('{"a": 1, "approved": true')).toEqual({ value: { a: 1, approved: true } });
  });

  it('skips prose and a code fence before the value, and has nothing before a bracket', () => {
    expect(parsePartialJson('Sure:\n```json\n{"a": [1')).toEqual({ value: { a: [1] } });
    expect(parsePartialJson('Thinking about it')).toBeUndefined();
  });
});

describe('watchPartialObject', () => {
  it('reports growing values over 1–3 character deltas and the whole value at the finish', () => {
    const seen: unknown[] = [];
    const watch = watchPartialObject((value) => seen.push(value));
    const parts = deltas(JSON_TEXT);
    for (const part of parts) watch(part);
    expect(seen.at(-1)).toEqual(ANSWER);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.length).toBeLessThan(parts.length / 2);
    expect(seen).toContainEqual({ title: 'Quarterly report' });
    // Never a key without its value (`null`), never half a literal (`"tr"`): each value leads to the whole.
    for (const value of seen) expect(leadsTo(value, ANSWER), JSON.stringify(value)).toBe(true);
  });

  it('parses a long string a bounded number of times, however small its deltas', () => {
    const long = `{"text": "${'x'.repeat(20_000)}"}`;
    let reports = 0;
    const watch = watchPartialObject(() => reports++);
    for (const part of deltas(long)) watch(part);
    // Every report is a parse that changed the value: far fewer than one per delta (about 13 000 here).
    expect(reports).toBeLessThan(long.length / PARTIAL_PARSE_EVERY / 4);
    expect(reports).toBeGreaterThan(10);
  });
});

describe('partial_object events', () => {
  it('stream from an Executor answer split into tiny chunks, and the progress store keeps the latest', async () => {
    const model = new ScriptedModel([{ stream: deltas(JSON_TEXT) }], {
      info: { structuredOutput: 'json_schema' },
    });
    const schema = z.object({
      title: z.string(),
      figures: z.array(z.number()),
      approved: z.boolean(),
      owner: z.object({ name: z.string(), team: z.string().nullable() }),
    });
    const run = new Executor({ model, output: schema, runtime: testRuntime() }).run('Report?');
    const store = createProgressStore(run);
    const partials: Array<TandemEvent<'partial_object'>> = [];
    run.on('partial_object', (event) => partials.push(event));
    const result = await run.result;
    expect(result.object).toEqual(ANSWER);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials[0]!.agent).toBe('executor');
    expect(partials.at(-1)!.object).toEqual(ANSWER);
    expect(store.getState().partialObject).toEqual(ANSWER);
  });
});
