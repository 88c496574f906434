/**
 * A zod schema older than zod 4.2 (zod 3.25's `zod/v4`, zod 4.0, 4.1) has no
 * Standard JSON Schema: tandem converts it with its own zod, imported on first
 * use. A run defined before that import still sends the converted schema,
 * with nothing for the caller to await first.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';

/** A zod schema without Standard JSON Schema, as zod < 4.2 makes them. */
function older<T extends z.ZodType>(schema: T): T {
  return Object.create(schema, { '~standard': { value: { ...schema['~standard'], jsonSchema: undefined } } });
}

const CITY = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

/** The modules afresh: tandem has not imported zod yet. */
async function fresh() {
  vi.resetModules();
  const [executor, tools, registry, json, invoke, messages, errors, testing] = await Promise.all([
    import('../../src/agents/executor/executor.js'),
    import('../../src/tools/types.js'),
    import('../../src/tools/registry.js'),
    import('../../src/model/json.js'),
    import('../../src/model/resilience/resilient-invoker.js'),
    import('../../src/core/messages.js'),
    import('../../src/core/errors.js'),
    import('../../src/testing/scripted-model.js'),
  ]);
  return { ...executor, ...tools, ...registry, ...json, ...invoke, ...messages, ...errors, ...testing };
}

describe('an older zod schema defined before tandem imports zod', () => {
  it("reaches the model as its JSON Schema in an Executor run's tools", async () => {
    const { Executor, defineTool, ScriptedModel } = await fresh();
    const tool = defineTool({
      name: 'weather',
      description: 'Weather of a city',
      parameters: older(z.object({ city: z.string() })),
      execute: () => 'sunny',
    });
    const model = new ScriptedModel([{ text: 'done' }]);
    await new Executor({ model, tools: [tool] }).run('weather?').result;
    expect(model.requests[0]!.tools?.[0]?.parameters).toEqual(CITY);
  });

  it('reaches the model in the next request when its tool is registered during the run', async () => {
    const { Executor, ToolRegistry, defineTool, ScriptedModel } = await fresh();
    const weather = defineTool({
      name: 'weather',
      description: 'Weather of a city',
      parameters: older(z.object({ city: z.string() })),
      execute: () => 'sunny',
    });
    const tools = new ToolRegistry();
    tools.register(
      defineTool({
        name: 'enable_weather',
        description: 'Adds the weather tool',
        parameters: z.object({}),
        execute: () => {
          tools.register(weather);
          return 'enabled';
        },
      }),
    );
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'enable_weather', args: {} }] },
      { text: 'done' },
    ]);
    await new Executor({ model, tools }).run('weather?').result;
    expect(model.requests[1]!.tools?.map((t) => [t.name, t.parameters.type])).toEqual([
      ['enable_weather', 'object'],
      ['weather', 'object'],
    ]);
    expect(model.requests[1]!.tools?.[1]?.parameters).toEqual(CITY);
  });

  it('is refused when its JSON Schema is first made, naming the tool, when it is not an object', async () => {
    const { ToolRegistry, defineTool, ConfigError } = await fresh();
    // A union's JSON Schema can only be judged once made: definition lets it through.
    const tool = defineTool({
      name: 'pick',
      description: 'Pick one',
      parameters: older(z.union([z.string(), z.number()])),
      execute: () => 'ok',
    });
    const error = await new ToolRegistry([tool]).specs().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^Tool 'pick' parameters must be an object schema \(JSON Schema type 'object'\), got type \["string","number"\]/,
    );
  });

  it('is refused at definition when its zod type is never an object', async () => {
    const { defineTool } = await fresh();
    const define = () =>
      defineTool({ name: 'n', description: 'N', parameters: older(z.number()), execute: () => 'ok' });
    expect(define).toThrow(/^Tool 'n' parameters must be an object schema .*got a zod number schema/);
  });

  it("reaches the model as an Executor's output response format", async () => {
    const { Executor, ScriptedModel } = await fresh();
    const model = new ScriptedModel([{ text: '{"city": "Oslo"}' }], {
      info: { structuredOutput: 'json_schema' },
    });
    const executor = new Executor({ model, output: older(z.object({ city: z.string() })) });
    const result = await executor.run('Which city?').result;
    expect(result.object).toEqual({ city: 'Oslo' });
    expect(model.requests[0]!.responseFormat?.schema).toEqual(CITY);
  });

  it("reaches the model as generateObject's native response format", async () => {
    const { directInvoker, generateObject, userMessage, ScriptedModel } = await fresh();
    const model = new ScriptedModel([{ text: '{"city": "Oslo"}' }], {
      info: { structuredOutput: 'json_schema' },
    });
    const { object } = await generateObject({
      invoker: directInvoker(model),
      request: { messages: [userMessage('Which city?')] },
      schema: older(z.object({ city: z.string() })),
    });
    expect(object).toEqual({ city: 'Oslo' });
    expect(model.requests[0]!.responseFormat?.schema).toEqual(CITY);
  });
});
