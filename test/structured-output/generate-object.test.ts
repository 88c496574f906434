/**
 * `generateObject` with the schemas tools accept — zod, any Standard Schema,
 * `jsonSchema()` — in the model's native mode where it has one, and the
 * planner, router and verifier on a model with a native JSON mode.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Planner, Router } from '../../src/agents/index.js';
import { verifyResults } from '../../src/agents/orchestrator/verify.js';
import type { EventPayloads, EventType } from '../../src/core/events.js';
import { userMessage } from '../../src/core/messages.js';
import * as tandem from '../../src/index.js';
import { generateObject, parseWithSchema, type StructuredOutputError } from '../../src/model/json.js';
import { directInvoker } from '../../src/model/resilience/resilient-invoker.js';
import type { ModelInfo } from '../../src/model/types.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { jsonSchema } from '../../src/tools/json-schema.js';

const request = { system: 'Reply with the city as JSON.', messages: [userMessage('Paris?')] };
const PARIS = { name: 'Paris', population: 2100000 };
const NATIVE: ModelInfo = { structuredOutput: 'json_schema' };

function generate<T>(
  schema: Parameters<typeof generateObject<T>>[0]['schema'],
  info?: ModelInfo,
  native?: boolean,
) {
  const model = new ScriptedModel(
    [{ text: 'not yet' }, { text: JSON.stringify(PARIS) }],
    info ? { info } : {},
  );
  const pending = generateObject({ invoker: directInvoker(model), request, schema, delays: [0], native });
  return { model, pending };
}

describe('generateObject schemas', () => {
  it('takes a valibot schema (Standard Schema) and re-asks with its issues', async () => {
    const schema = v.object({ name: v.string(), population: v.number() });
    const { model, pending } = generate(schema);
    const { object } = await pending;
    expect(object).toEqual(PARIS);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('takes jsonSchema() and validates with its check', async () => {
    const schema = jsonSchema<{ name: string; population: number }>({
      type: 'object',
      properties: { name: { type: 'string' }, population: { type: 'number' } },
      required: ['name', 'population'],
    });
    const { object } = await generate(schema, NATIVE).pending;
    expect(object.population).toBe(2100000);
  });

  it('validates an asynchronous schema, which parseWithSchema refuses', async () => {
    const schema = z.object({ name: z.string() }).refine(async (value) => value.name === 'Paris');
    const { object } = await generate(schema).pending;
    expect(object).toEqual({ name: 'Paris' });
    expect(() => parseWithSchema('{"name": "Paris"}', schema)).toThrow(/asynchronously/);
  });

  it('reports the schema issues with their paths in a schema_mismatch', async () => {
    const schema = z.object({ city: z.object({ population: z.number() }) });
    const error = (() => {
      try {
        return parseWithSchema('{"city": {"population": "many"}}', schema);
      } catch (e) {
        return e;
      }
    })() as StructuredOutputError;
    expect(error.kind).toBe('schema_mismatch');
    expect(error.issues?.[0]?.path).toEqual(['city', 'population']);
    expect(error.message).toContain('→ at city.population');
  });
});

describe('generateObject native modes', () => {
  const schema = z.object({ name: z.string(), population: z.number() });

  it('sends the JSON Schema as the response format on a native model', async () => {
    const { model, pending } = generate(schema, NATIVE);
    await pending;
    expect(model.requests[0]!.responseFormat).toEqual({
      type: 'json',
      name: 'response',
      schema: {
        type: 'object',
        properties: { name: { type: 'string' }, population: { type: 'number' } },
        required: ['name', 'population'],
      },
    });
  });

  it('asks a JSON-mode model for JSON, a model without either for nothing, and native: false for nothing', async () => {
    const json = generate(schema, { supportsJson: true });
    await json.pending;
    expect(json.model.requests[0]!.responseFormat).toEqual({ type: 'json' });
    const none = generate(schema);
    await none.pending;
    expect(none.model.requests[0]!.responseFormat).toBeUndefined();
    const off = generate(schema, NATIVE, false);
    await off.pending;
    expect(off.model.requests[0]!.responseFormat).toBeUndefined();
  });

  it('falls back to plain JSON for a schema without a JSON Schema converter', async () => {
    const { model, pending } = generate(v.object({ name: v.string(), population: v.number() }), NATIVE);
    await pending;
    expect(model.requests[0]!.responseFormat).toEqual({ type: 'json' });
  });

  it('streams partial objects when asked to', async () => {
    const model = new ScriptedModel([{ text: JSON.stringify(PARIS) }], { chunking: 'chars', info: NATIVE });
    const seen: unknown[] = [];
    await generateObject({
      invoker: directInvoker(model),
      request,
      schema,
      stream: true,
      onPartialObject: (object) => seen.push(object),
    });
    expect(seen).toContainEqual({ name: 'Paris' });
    expect(seen.at(-1)).toEqual(PARIS);
  });
});

describe('planner, router and verifier on a native model', () => {
  const events = () => {
    const emitted: Array<{ type: EventType }> = [];
    const emit = {
      runId: 'r',
      emit<T extends EventType>(type: T, _payload: EventPayloads[T]) {
        emitted.push({ type });
      },
      scope: () => emit,
      backpressure: () => undefined,
    };
    return emit;
  };

  it('the planner sends its decision schema; jsonMode: false sends none', async () => {
    const model = new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "short"}' }], {
      info: NATIVE,
    });
    await new Planner({ model }).decide('Say hi');
    expect(model.requests[0]!.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object' } });
    const off = new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "short"}' }], { info: NATIVE });
    await new Planner({ model: off, jsonMode: false }).decide('Say hi');
    expect(off.requests[0]!.responseFormat).toBeUndefined();
  });

  it('the router sends its reply schema', async () => {
    const model = new ScriptedModel([{ text: '{"agent": "coder", "confidence": 0.9, "reason": "code"}' }], {
      info: NATIVE,
    });
    const router = new Router({
      model,
      agents: [
        { name: 'general', description: 'anything' },
        { name: 'coder', description: 'code' },
      ],
      defaultAgent: 'general',
    });
    expect((await router.route('Fix my bug')).agent).toBe('coder');
    expect(model.requests[0]!.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object' } });
  });

  it('the verifier asks for a JSON verdict and reads it in any case', async () => {
    const model = new ScriptedModel([{ text: '{"verdict": "partial", "reason": "half done"}' }], {
      info: NATIVE,
    });
    const verdict = await verifyResults({
      invoker: directInvoker(model),
      task: 'Do it',
      steps: [{ id: 's1', status: 'completed', output: 'half' }],
      emit: events(),
    });
    expect(verdict).toEqual({ verdict: 'partial', reason: 'half done' });
    expect(model.requests[0]!.responseFormat).toMatchObject({ name: 'verdict', schema: { type: 'object' } });
    // Both prompts are public, so an app can show or extend what its verifier is asked.
    expect(model.requests[0]!.system).toBe(tandem.VERIFY_JSON_SYSTEM_PROMPT);
    const line = new ScriptedModel([{ text: 'FAIL: nothing done' }]);
    const judged = await verifyResults({
      invoker: directInvoker(line),
      task: 'Do it',
      steps: [{ id: 's1', status: 'failed', output: '' }],
      emit: events(),
    });
    expect(judged.verdict).toBe('fail');
    expect(line.requests[0]!.responseFormat).toBeUndefined();
    expect(line.requests[0]!.system).toBe(tandem.VERIFY_SYSTEM_PROMPT);
  });
});
