/**
 * An Executor with an output schema: the object in the result, the native
 * format on the loop's requests or a formatting call after them, the
 * prompt-extract-validate-re-ask fallback, and its typed end.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import { RunError } from '../../src/core/errors.js';
import type { TandemEvent } from '../../src/core/events.js';
import { textOf } from '../../src/core/messages.js';
import type { ModelInfo, ModelRequest } from '../../src/model/types.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { jsonSchema } from '../../src/tools/json-schema.js';
import { defineTool } from '../../src/tools/types.js';
import { add } from '../support/executor-fixtures.js';

const city = z.object({ name: z.string(), population: z.number().int() });
const PARIS = { name: 'Paris', population: 2_100_000 };

function executor(script: ScriptEntry[], info?: ModelInfo, tools = true) {
  const model = new ScriptedModel(script, info ? { info } : {});
  const exec = new Executor({
    model,
    tools: tools ? [add] : [],
    instructions: 'Answer about cities.',
    output: city,
    runtime: testRuntime(),
  });
  return { model, exec };
}

function systemOf(request: ModelRequest): string {
  return typeof request.system === 'string'
    ? request.system
    : (request.system ?? []).map((p) => p.text).join('\n');
}

async function collect<T>(run: { on(type: '*', fn: (e: TandemEvent) => void): unknown; result: Promise<T> }) {
  const events: TandemEvent[] = [];
  run.on('*', (event) => events.push(event));
  return { result: await run.result, events };
}

describe('Executor output schema', () => {
  it('types result.object from the zod schema', async () => {
    const { exec } = executor([{ text: JSON.stringify(PARIS) }], { structuredOutput: 'json_schema' }, false);
    const result = await exec.run('Paris?').result;
    expectTypeOf(result.object).toEqualTypeOf<{ name: string; population: number }>();
    expect(result.object).toEqual(PARIS);
    expect(JSON.parse(result.output)).toEqual(PARIS);
    const plain = new Executor({ model: new ScriptedModel([]) });
    expectTypeOf<Awaited<ReturnType<typeof plain.run>['result']>['object']>().toEqualTypeOf<unknown>();
  });

  it('types a per-run schema, a JSON Schema through jsonSchema() included', async () => {
    const { exec } = executor([{ text: '{"ok": true}' }], { structuredOutput: 'json_schema' }, false);
    const schema = jsonSchema<{ ok: boolean }>({
      type: 'object',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
    });
    const result = await exec.run('Fine?', { output: schema }).result;
    expectTypeOf(result.object).toEqualTypeOf<{ ok: boolean }>();
    expect(result.object).toEqual({ ok: true });
  });

  it('keeps a per-run schema to its run: plain runs of the same executor, before and after, send no format', async () => {
    const model = new ScriptedModel(
      [{ text: 'plain' }, { text: JSON.stringify(PARIS) }, { text: 'plain again' }],
      { info: { structuredOutput: 'json_schema' } },
    );
    const exec = new Executor({ model, instructions: 'Answer.', runtime: testRuntime() });
    expect((await exec.run('one').result).output).toBe('plain');
    expect((await exec.run('two', { output: city }).result).object).toEqual(PARIS);
    expect((await exec.run('three').result).output).toBe('plain again');
    expect(model.requests.map((r) => r.responseFormat?.type)).toEqual([undefined, 'json', undefined]);
  });

  it('sends the schema as the response format of every turn when tools and a format go together', async () => {
    const { model, exec } = executor(
      [{ toolCalls: [{ name: 'add', args: { a: 2_000_000, b: 100_000 } }] }, { text: JSON.stringify(PARIS) }],
      { structuredOutput: 'json_schema', structuredOutputWithTools: true },
    );
    const result = await exec.run('Paris?').result;
    expect(result.object).toEqual(PARIS);
    expect(model.calls).toBe(2);
    for (const request of model.requests) {
      expect(request.tools?.map((t) => t.name)).toEqual(['add']);
      expect(request.responseFormat).toMatchObject({ type: 'json', name: 'response' });
      expect(request.responseFormat?.schema).toMatchObject({
        type: 'object',
        required: ['name', 'population'],
      });
    }
  });

  it('formats the answer with one more call when the model takes no format beside tools', async () => {
    const { model, exec } = executor(
      [
        { toolCalls: [{ name: 'add', args: { a: 2_000_000, b: 100_000 } }] },
        { text: 'Paris has 2,100,000 people.' },
        { text: JSON.stringify(PARIS) },
      ],
      { structuredOutput: 'tool', structuredOutputWithTools: false },
    );
    const { result, events } = await collect(exec.run('Paris?'));
    expect(result.object).toEqual(PARIS);
    expect(model.requests[0]!.responseFormat).toBeUndefined();
    expect(systemOf(model.requests[0]!)).toContain('will be turned into JSON');
    const format = model.requests[2]!;
    expect(format.tools).toBeUndefined();
    expect(format.responseFormat?.schema).toMatchObject({ type: 'object' });
    expect(textOf(format.messages[0]!)).toContain('Paris has 2,100,000 people.');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage).toHaveLength(3);
  });

  it('prompts with the schema, extracts, validates and re-asks with the issues (no native mode)', async () => {
    const { model, exec } = executor([
      { text: 'Here you go: {"name": "Paris", "population": "about two million"}' },
      { text: '```json\n{"name": "Paris", "population": 2100000}\n```' },
    ]);
    const { result, events } = await collect(exec.run('Paris?'));
    expect(result.object).toEqual(PARIS);
    expect(result.output).toBe('{"name": "Paris", "population": 2100000}');
    expect(model.requests[0]!.responseFormat).toBeUndefined();
    expect(systemOf(model.requests[0]!)).toContain('"population"');
    const reask = model.requests[1]!;
    expect(reask.toolChoice).toBe('none');
    expect(textOf(reask.messages.at(-1)!)).toMatch(
      /population[\s\S]*expected number|expected number[\s\S]*population/i,
    );
    // The accepted reply replaces the rejected one; the re-ask is not part of the conversation.
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(result.messages[1]!)).toContain('2100000');
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });

  it('re-asks after a reply that is not JSON at all, then takes the valid one', async () => {
    const { model, exec } = executor(
      [{ text: 'Paris is big.' }, { text: JSON.stringify(PARIS) }],
      undefined,
      false,
    );
    const result = await exec.run('Paris?').result;
    expect(result.object).toEqual(PARIS);
    expect(textOf(model.requests[1]!.messages.at(-1)!)).toContain('no JSON');
  });

  it('asks a JSON-mode model for JSON and puts the schema in the prompt', async () => {
    const { model, exec } = executor([{ text: JSON.stringify(PARIS) }], { supportsJson: true }, false);
    await exec.run('Paris?').result;
    expect(model.requests[0]!.responseFormat).toEqual({ type: 'json' });
    expect(systemOf(model.requests[0]!)).toContain('matching this JSON Schema');
  });

  it('ends with RunError invalid_output after the bounded re-asks', async () => {
    const bad = { text: '{"name": "Paris"}' };
    const { model, exec } = executor([bad, bad, bad], undefined, false);
    const { status, error } = await exec.run('Paris?').result;
    expect(status).toBe('failed');
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).kind).toBe('invalid_output');
    expect((error as RunError).message).toContain('population');
    expect(model.calls).toBe(3);
  });

  it('takes maxOutputReasks: 0 as no re-ask', async () => {
    const model = new ScriptedModel([{ text: 'nope' }]);
    const exec = new Executor({
      model,
      output: city,
      limits: { maxOutputReasks: 0 },
      runtime: testRuntime(),
    });
    const { status, error } = await exec.run('Paris?').result;
    expect(status).toBe('failed');
    expect((error as RunError).kind).toBe('invalid_output');
    expect(model.calls).toBe(1);
  });

  it('formats a partial answer (iterations used up) into the object', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'add', args: { a: 2_000_000, b: 100_000 } }] },
      { text: JSON.stringify(PARIS) },
    ]);
    const exec = new Executor({
      model,
      tools: [add],
      limits: { maxIterations: 1 },
      output: city,
      runtime: testRuntime(),
    });
    const result = await exec.run('Paris?').result;
    expect(result.status).toBe('partial');
    expect(result.object).toEqual(PARIS);
    expect(textOf(model.requests[1]!.messages[0]!)).toContain('2100000');
  });

  it('makes no call after a budget stop: the object is in the partial answer, or the budget error stands', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a city up',
      parameters: z.object({ city: z.string() }),
      execute: ({ city: name }) => (name === 'Paris' ? JSON.stringify(PARIS) : 'no data'),
    });
    const turn = (name: string) => ({ toolCalls: [{ name: 'lookup', args: { city: name } }] });
    for (const [name, found] of [
      ['Paris', true],
      ['Atlantis', false],
    ] as const) {
      // The second call reaches the limit: the run stops with the first call's result as its partial answer.
      const model = new ScriptedModel([turn(name), turn('Lyon'), { text: 'never reached' }]);
      const exec = new Executor({ model, tools: [lookup], output: city, runtime: testRuntime() });
      const outcome = await exec.run('Look it up', { budget: { maxToolCalls: 2 } }).result;
      expect(model.calls).toBe(2);
      if (found) expect(outcome).toMatchObject({ status: 'partial', object: PARIS });
      else expect(outcome).toMatchObject({ status: 'partial', error: { kind: 'budget' } });
    }
  });

  it('refuses an output that is not a schema when the executor is made', () => {
    expect(() => new Executor({ model: new ScriptedModel([]), output: { type: 'object' } as never })).toThrow(
      /Output schema/,
    );
  });
});
