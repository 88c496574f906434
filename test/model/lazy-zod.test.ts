import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';

/** Fresh copies of the modules, so zod is not yet imported by tandem. */
async function fresh() {
  vi.resetModules();
  const lazy = await import('../../src/model/lazy-zod.js');
  const json = await import('../../src/model/schema-json.js');
  const { ConfigError } = await import('../../src/core/errors.js');
  return { ...lazy, ...json, ConfigError };
}

afterEach(() => {
  vi.doUnmock('zod/v4');
});

describe('lazySchema', () => {
  it('validates asynchronously until zod is imported, then synchronously, building once', async () => {
    const { lazySchema, loadedZod } = await fresh();
    const build = vi.fn((zod: typeof z) => zod.object({ n: zod.number().default(1) }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(loadedZod()).toBeUndefined();

    const first = schema['~standard'].validate({});
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ value: { n: 1 } });
    expect(schema['~standard'].validate({ n: 'x' })).toMatchObject({ issues: [{ path: ['n'] }] });
    expect(build).toHaveBeenCalledTimes(1);
    expect(await schema.load()).toBe(await schema.load());
  });

  it('turns a failed import of zod into a ConfigError, and imports again on the next use', async () => {
    vi.doMock('zod/v4', () => {
      throw new Error('Cannot find package zod');
    });
    const { loadZod, ConfigError } = await fresh();
    const failed = await loadZod().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConfigError);
    expect((failed as Error).message).toMatch(/^tandem-agents needs its zod peer dependency .*: \S/);
    vi.doUnmock('zod/v4');
    await expect(loadZod()).resolves.toHaveProperty('object');
  });
});

describe('the JSON Schema of a zod schema older than zod 4.2', () => {
  /** A zod schema without Standard JSON Schema, as zod 3.25's `zod/v4`, 4.0 and 4.1 make them. */
  function older<T extends z.ZodType>(schema: T): T {
    return Object.create(schema, {
      '~standard': { value: { ...schema['~standard'], jsonSchema: undefined } },
    });
  }

  it('is made when first asked for, importing zod then, with nothing to wait for beforehand', async () => {
    const { jsonSchemaNow, jsonSchemaOf, loadedZod } = await fresh();
    const schema = older(z.object({ city: z.string() }));
    expect(jsonSchemaNow(schema, 'Tool parameters')).toBeUndefined();
    expect(loadedZod()).toBeUndefined();
    const json = await jsonSchemaOf(schema, 'Tool parameters');
    expect(json).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    // Converted once per schema object.
    expect(await jsonSchemaOf(schema, 'Tool parameters')).toBe(json);
    expect(jsonSchemaNow(schema, 'Tool parameters')).toBe(json);
  });

  it('is made at once when zod is already imported', async () => {
    const { jsonSchemaNow, loadZod } = await fresh();
    await loadZod();
    expect(jsonSchemaNow(older(z.object({ n: z.number() })), 'x')).toMatchObject({ type: 'object' });
  });

  it('rejects with a ConfigError naming the schema when it cannot be converted', async () => {
    const { jsonSchemaOf, ConfigError } = await fresh();
    const broken = older(z.object({ n: z.number() }));
    Object.defineProperty(broken, '_zod', { value: { def: { type: 'no such type' } } });
    const error = await jsonSchemaOf(broken, "Tool 'x' parameters").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Tool 'x' parameters: converting to JSON Schema failed/);
  });
});

describe("the JSON Schema of one of tandem's own schemas", () => {
  it('is the one zod writes for the schema it builds, made when first asked for', async () => {
    const { lazySchema, jsonSchemaNow, jsonSchemaOf } = await fresh();
    const lazy = lazySchema((zod) => zod.object({ q: zod.string().min(1).describe('Query') }));
    expect(jsonSchemaNow(lazy, 'x')).toBeUndefined();
    expect(await jsonSchemaOf(lazy, 'x')).toEqual({
      type: 'object',
      properties: { q: { type: 'string', minLength: 1, description: 'Query' } },
      required: ['q'],
    });
  });
});
