/**
 * A zod schema older than zod 4.2 (zod 3.25's `zod/v4`, zod 4.0, 4.1) has no
 * Standard JSON Schema: tandem converts it with its own zod, imported on first
 * use. A run defined before that import still sends the converted schema.
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
  const [executor, tools, json, invoke, messages, testing] = await Promise.all([
    import('../../src/agents/executor/executor.js'),
    import('../../src/tools/types.js'),
    import('../../src/model/json.js'),
    import('../../src/model/invoke.js'),
    import('../../src/core/messages.js'),
    import('../../src/testing/scripted-model.js'),
  ]);
  return { ...executor, ...tools, ...json, ...invoke, ...messages, ...testing };
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
