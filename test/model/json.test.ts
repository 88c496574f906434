import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AbortError, ModelError } from '../../src/core/errors.js';
import type { Emitter, EventPayloads, EventType } from '../../src/core/events.js';
import { textOf, userMessage } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { ModelInvoker } from '../../src/model/invoke.js';
import {
  extractJSON,
  generateObject,
  generateWithRetry,
  parseJSONLoose,
  StructuredOutputError,
} from '../../src/model/json.js';
import { directInvoker } from '../../src/model/resilience/resilient-invoker.js';
import { FakeClock, flush } from '../../src/testing/fake-clock.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

function recorder(): Emitter & { events: Array<{ type: EventType } & Record<string, unknown>> } {
  const events: Array<{ type: EventType } & Record<string, unknown>> = [];
  const emitter = {
    runId: 'run',
    events,
    emit<T extends EventType>(type: T, payload: EventPayloads[T]) {
      events.push({ type, ...(payload as object) });
    },
    scope: () => emitter,
    backpressure: () => undefined,
  };
  return emitter;
}

const okSchema = z.object({ ok: z.boolean() });
const request = { system: 'Reply with JSON {"ok": boolean}.', messages: [userMessage('Task: check')] };

describe('extractJSON', () => {
  it('takes JSON from a ```json fence', () => {
    expect(extractJSON('Here you go:\n```json\n{"a": 1}\n```\nDone.')).toBe('{"a": 1}');
  });

  it('takes JSON from a bare ``` fence', () => {
    expect(extractJSON('```\n[1, 2, 3]\n```')).toBe('[1, 2, 3]');
  });

  it('skips fences in other languages', () => {
    const text = '```ts\nconst x = {a: 1};\n```\nAnswer: {"b": 2}';
    expect(extractJSON(text)).toBe('{"b": 2}');
  });

  it('finds an object between prose before and after it', () => {
    expect(extractJSON('Sure! The answer is {"needsPlan": true} as requested. {oops')).toBe(
      '{"needsPlan": true}',
    );
  });

  it('handles nesting deeper than the seed regex (4+ levels)', () => {
    const nested = '{"a": {"b": {"c": {"d": {"e": [1, {"f": 2}]}}}}}';
    expect(extractJSON(`prefix ${nested} suffix`)).toBe(nested);
  });

  it('ignores braces and brackets inside strings, escaped quotes included', () => {
    const json = '{"code": "function f() { return \\"}\\"; }", "list": "[not an array"}';
    expect(extractJSON(`Result: ${json} -- end }`)).toBe(json);
    expect(JSON.parse(extractJSON(`Result: ${json}`)!)).toEqual({
      code: 'function f() { return "}"; }',
      list: '[not an array',
    });
  });

  it('takes the first block that parses when there are several', () => {
    expect(extractJSON('{not json} then {"a": 1} and {"b": 2}')).toBe('{"a": 1}');
  });

  it('prefers a fenced block over an object in the surrounding prose', () => {
    expect(extractJSON('An example: {"x": 0}\n```json\n{"y": 1}\n```')).toBe('{"y": 1}');
  });

  it('prefers an object over an earlier array, unless an array is expected', () => {
    const text = 'According to [1], the result is {"a": 1}.';
    expect(extractJSON(text)).toBe('{"a": 1}');
    expect(extractJSON(text, { expect: 'array' })).toBe('[1]');
  });

  it('returns a top-level array whole instead of the objects inside it', () => {
    expect(extractJSON('[{"id": 1}, {"id": 2}]')).toBe('[{"id": 1}, {"id": 2}]');
  });

  it('finds JSON nested inside braces that are not JSON', () => {
    expect(extractJSON('{{ template {"a": 1} }}')).toBe('{"a": 1}');
  });

  it('returns an unclosed value to the end of the text, repaired', () => {
    expect(extractJSON('Plan: {"title": "x", "steps": [1, 2')).toBe('{"title": "x", "steps": [1, 2]}');
  });

  it('returns undefined when there is no JSON', () => {
    expect(extractJSON('no json here')).toBeUndefined();
  });
});

describe('parseJSONLoose', () => {
  it('parses valid JSON as is', () => {
    expect(parseJSONLoose('```json\n{"a": [1, {"b": null}]}\n```')).toEqual({ a: [1, { b: null }] });
  });

  it('repairs trailing commas, single quotes and a truncated tail', () => {
    expect(parseJSONLoose('{"a": 1,}')).toEqual({ a: 1 });
    expect(parseJSONLoose("Result: {'a': 'b'}")).toEqual({ a: 'b' });
    expect(parseJSONLoose('{"a": [1, 2')).toEqual({ a: [1, 2] });
  });

  it('throws typed errors: empty_reply, no_json, invalid_json', () => {
    const kind = (text: string) => {
      try {
        parseJSONLoose(text);
      } catch (error) {
        return error instanceof StructuredOutputError ? error.kind : 'other';
      }
      return 'none';
    };
    expect(kind('   ')).toBe('empty_reply');
    expect(kind('just prose')).toBe('no_json');
    expect(kind('{ this is prose }')).toBe('invalid_json');
  });
});

describe('generateObject', () => {
  it('returns the validated object after one call and sends no stream', async () => {
    const model = new ScriptedModel([
      { text: 'Sure:\n```json\n{"ok": true}\n```', usage: { inputTokens: 7 } },
    ]);
    const streamed: boolean[] = [];
    const direct = directInvoker(model);
    const invoker: ModelInvoker = {
      ...direct,
      invoke(req, options) {
        streamed.push(options?.stream !== false);
        return direct.invoke(req, options);
      },
    };
    const result = await generateObject({ invoker, request, schema: okSchema });
    expect(result.object).toEqual({ ok: true });
    expect(result.attempts).toBe(1);
    expect(result.usage.inputTokens).toBe(7);
    expect(streamed).toEqual([false]);
    model.assertConsumed();
  });

  it('re-asks with the reply and the validation error, after 2500 ms and not before', async () => {
    const clock = new FakeClock();
    const model = new ScriptedModel([{ text: '{"ok": "yes"}' }, { text: '{"ok": true}' }]);
    const pending = generateObject({ invoker: directInvoker(model), request, schema: okSchema, clock });
    await flush();
    expect(model.calls).toBe(1);
    await clock.advance(2499);
    expect(model.calls).toBe(1);
    await clock.advance(1);
    expect((await pending).object).toEqual({ ok: true });
    expect(model.calls).toBe(2);
    const second = model.requests[1]!;
    expect(second.system).toBe(request.system);
    expect(second.messages).toHaveLength(3);
    expect(second.messages[1]).toMatchObject({ role: 'assistant' });
    expect(textOf(second.messages[1]!)).toBe('{"ok": "yes"}');
    expect(second.messages[2]).toMatchObject({ role: 'user' });
    expect(textOf(second.messages[2]!)).toContain('ok');
    expect(textOf(second.messages[2]!)).toMatch(/expected boolean/i);
    // The first request was recorded before the re-ask was appended.
    expect(model.requests[0]!.messages).toHaveLength(1);
  });

  it('makes 3 attempts in all, waiting 2500 then 3750 ms, then throws with the usage of all', async () => {
    const clock = new FakeClock();
    const emit = recorder();
    const model = new ScriptedModel([
      { text: 'no json', usage: { outputTokens: 1 } },
      { text: 'still none', usage: { outputTokens: 2 } },
      { text: '{"ok": 1}', usage: { outputTokens: 4 } },
    ]);
    const pending = generateObject({ invoker: directInvoker(model), request, schema: okSchema, clock, emit });
    const settled = pending.catch((e: unknown) => e);
    await clock.advance(2500);
    expect(model.calls).toBe(2);
    await clock.advance(3749);
    expect(model.calls).toBe(2);
    await clock.advance(1);
    const error = await settled;
    expect(model.calls).toBe(3);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).kind).toBe('schema_mismatch');
    expect((error as StructuredOutputError).attempts).toBe(3);
    expect((error as StructuredOutputError).usage.outputTokens).toBe(7);
    expect((error as StructuredOutputError).text).toBe('{"ok": 1}');
    expect(emit.events.map((e) => [e.type, e.attempt, e.delayMs])).toEqual([
      ['retry', 2, 2500],
      ['retry', 3, 3750],
    ]);
  });

  it('retries a retryable model error with the same messages, honouring retryAfterMs', async () => {
    const clock = new FakeClock();
    const model = new ScriptedModel([
      { error: new ModelError('rate_limit', 'slow down', { retryAfterMs: 5000 }) },
      { text: '{"ok": false}' },
    ]);
    const pending = generateObject({ invoker: directInvoker(model), request, schema: okSchema, clock });
    await clock.advance(4999);
    expect(model.calls).toBe(1);
    await clock.advance(1);
    expect((await pending).object).toEqual({ ok: false });
    expect(model.requests[1]!.messages).toHaveLength(1);
  });

  it('fails at once on a non-retryable model error', async () => {
    const model = new ScriptedModel([{ error: new ModelError('auth', 'bad key') }]);
    const error = await generateObject({ invoker: directInvoker(model), request, schema: okSchema }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'model_failed', attempts: 1 });
    expect((error as Error).cause).toBeInstanceOf(ModelError);
    model.assertConsumed();
  });

  it('does not retry a user abort during the model call', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([{ hang: true }, { text: '{"ok": true}' }]);
    const pending = generateObject({
      invoker: directInvoker(model),
      request,
      schema: okSchema,
      clock: new FakeClock(),
      signal: controller.signal,
    });
    await flush();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(model.calls).toBe(1);
  });

  it('does not retry a user abort during the wait', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const model = new ScriptedModel([{ text: 'nope' }, { text: '{"ok": true}' }]);
    const pending = generateObject({
      invoker: directInvoker(model),
      request,
      schema: okSchema,
      clock,
      signal: controller.signal,
    });
    await flush();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await clock.advance(10_000);
    expect(model.calls).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('adds every attempt to a caller-supplied usage record', async () => {
    const usage = emptyUsage();
    const model = new ScriptedModel([
      { text: 'x', usage: { inputTokens: 3 } },
      { text: '{"ok": true}', usage: { inputTokens: 5 } },
    ]);
    await generateObject({ invoker: directInvoker(model), request, schema: okSchema, delays: [0], usage });
    expect(usage.inputTokens).toBe(8);
  });
});

describe('generateWithRetry', () => {
  it('re-asks with a custom message and rethrows errors that are not output errors', async () => {
    const model = new ScriptedModel([{ text: '' }, { text: 'fine' }]);
    const result = await generateWithRetry({
      invoker: directInvoker(model),
      request,
      delays: [0],
      parse: (text) => {
        if (!text) throw new StructuredOutputError('empty_reply', 'empty');
        return text;
      },
      reask: () => 'Say something.',
    });
    expect(result.object).toBe('fine');
    expect(textOf(model.requests[1]!.messages[2]!)).toBe('Say something.');

    const bug = new TypeError('parser bug');
    const failing = new ScriptedModel([{ text: 'x' }]);
    await expect(
      generateWithRetry({
        invoker: directInvoker(failing),
        request,
        parse: () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });
});
