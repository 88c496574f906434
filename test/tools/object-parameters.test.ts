/**
 * A tool's parameters must be an object schema: every provider rejects
 * anything else, so tandem refuses it when the tool is defined — or, for a
 * zod schema whose JSON Schema is made later (zod < 4.2), before the first
 * request that would carry it.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { ConfigError, defineTool, jsonSchema } from '../../src/index.js';

function toolOf(parameters: unknown, given?: Record<string, unknown>) {
  return defineTool({
    name: 'count',
    description: 'Counts',
    parameters: parameters as never,
    jsonSchema: given,
    execute: () => 'ok',
  });
}

/** A zod schema without Standard JSON Schema, as zod 3.25's `zod/v4`, 4.0 and 4.1 make them. */
function older<T extends z.ZodType>(schema: T): T {
  return Object.create(schema, {
    '~standard': { value: { ...schema['~standard'], jsonSchema: undefined } },
  });
}

const OBJECT_ONLY = /^Tool 'count' parameters must be an object schema \(JSON Schema type 'object'\), got /;

describe('tool parameters that are not an object', () => {
  it.each([
    ['zod', () => z.number(), "type 'number'"],
    ['zod array', () => z.array(z.string()), "type 'array'"],
    [
      'zod union of objects',
      () => z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      'a union',
    ],
    ['zod any', () => z.any(), 'a schema without a type'],
    ['valibot', () => toStandardJsonSchema(v.string()), "type 'string'"],
    ['arktype', () => type('number'), "type 'number'"],
    ['JSON Schema', () => jsonSchema({ type: 'number' }), "type 'number'"],
    ['JSON Schema without a type', () => jsonSchema({}), 'a schema without a type'],
  ])('are refused at definition: %s', (_, schema, got) => {
    const defining = () => toolOf(schema());
    expect(defining).toThrow(ConfigError);
    expect(defining).toThrow(OBJECT_ONLY);
    expect(defining).toThrow(got);
    expect(defining).toThrow(/wrap the value in an object/);
  });

  it('are refused when given as the JSON Schema beside the schema', () => {
    expect(() => toolOf(z.object({ n: z.number() }), { type: 'array' })).toThrow(OBJECT_ONLY);
  });

  it('are refused at definition for an older zod whose JSON Schema is not made yet', () => {
    expect(() => toolOf(older(z.number()))).toThrow(/got a zod number schema/);
    expect(() => toolOf(older(z.array(z.number()).optional()))).toThrow(/got a zod array schema/);
  });

  it.each([
    ['zod object', () => z.object({ n: z.number() })],
    [
      'zod object with a default and a transform',
      () =>
        z
          .object({ n: z.number() })
          .default({ n: 1 })
          .transform((o) => o.n),
    ],
    ['zod record', () => z.record(z.string(), z.number())],
    ['older zod object', () => older(z.object({ n: z.number() }).optional())],
    ['valibot object', () => toStandardJsonSchema(v.object({ n: v.number() }))],
    ['arktype object', () => type({ n: 'number' })],
    ['JSON Schema object', () => jsonSchema({ type: 'object', properties: { n: { type: 'number' } } })],
  ])('accept an object: %s', (_, schema) => {
    expect(toolOf(schema()).name).toBe('count');
  });
});

describe('an older zod schema judged once its JSON Schema is made', () => {
  it('fails the first run with the same ConfigError, before any request', async () => {
    // Fresh modules: tandem has not imported its own zod, so the JSON Schema is made later.
    vi.resetModules();
    const tandem = await import('../../src/index.js');
    const { ScriptedModel } = await import('../../src/testing/index.js');
    const numberOrText = older(z.union([z.number(), z.string()]));
    const tool = tandem.defineTool({
      name: 'count',
      description: 'Counts',
      parameters: numberOrText,
      execute: () => 'ok',
    });
    const model = new ScriptedModel([{ text: 'never sent' }]);
    const executor = new tandem.Executor({ model, tools: [tool] });
    const failure = await executor.run('q').result.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(tandem.ConfigError);
    expect((failure as Error).message).toMatch(OBJECT_ONLY);
    expect((failure as Error).message).toContain('got type ["number","string"]');
    expect(model.requests).toHaveLength(0);
  });
});
