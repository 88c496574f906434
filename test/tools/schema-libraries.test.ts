/**
 * Tool parameters from the schema libraries users have: zod 4 (`zod/v4`),
 * valibot, arktype, any Standard Schema (sync or async). Each validates the
 * model's arguments and gives providers its library's own JSON Schema.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ConfigError } from '../../src/core/errors.js';
import { defineSkill, SkillRegistry, toolSkill } from '../../src/skills/index.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool, type Tool, toolSpec } from '../../src/tools/types.js';
import { toolCall } from './helpers.js';

const CITY = { type: 'string', description: 'City name' };
const WEATHER_JSON = {
  type: 'object',
  properties: { city: CITY, days: { type: 'number', default: 3 } },
  required: ['city'],
};

function weatherTool(parameters: StandardSchemaV1, jsonSchema?: Record<string, unknown>): Tool {
  return defineTool({
    name: 'weather',
    description: 'Forecast for a city',
    parameters,
    jsonSchema,
    execute: (args) => args,
  });
}

async function prepareOne(tool: Tool, args: Record<string, unknown>) {
  const turn = await prepareToolCalls(new ToolRegistry([tool]), [toolCall(tool.name, args)]);
  return turn.calls[0]!;
}

/** Waits a turn before answering, like a validator that looks something up. */
function asyncCitySchema(): StandardSchemaV1<unknown, { city: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      async validate(value) {
        await Promise.resolve();
        const city = (value as { city?: unknown }).city;
        return typeof city === 'string'
          ? { value: { city: city.toUpperCase() } }
          : { issues: [{ message: 'Unknown city', path: [{ key: 'city' }] }] };
      },
    },
  };
}

const libraries: { name: string; tool: () => Tool; good: unknown; badMessage: string; json: unknown }[] = [
  {
    name: 'zod 4 (zod/v4)',
    tool: () =>
      weatherTool(z.object({ city: z.string().describe('City name'), days: z.number().default(3) })),
    good: { city: 'Oslo', days: 3 },
    badMessage: 'city: Invalid input: expected string, received number',
    json: WEATHER_JSON,
  },
  {
    name: 'valibot (toStandardJsonSchema)',
    tool: () =>
      weatherTool(
        toStandardJsonSchema(
          v.object({ city: v.pipe(v.string(), v.description('City name')), days: v.optional(v.number(), 3) }),
        ),
      ),
    good: { city: 'Oslo', days: 3 },
    badMessage: 'city: Invalid type: Expected string but received 1',
    json: WEATHER_JSON,
  },
  {
    name: 'arktype',
    tool: () => weatherTool(type({ city: type.string.describe('City name'), days: 'number = 3' })),
    good: { city: 'Oslo', days: 3 },
    badMessage: 'city: city must be City name (was a number)',
    json: { type: 'object', properties: { city: CITY, days: { type: 'number' } }, required: ['city'] },
  },
  {
    name: 'an async Standard Schema with its JSON Schema given',
    tool: () => weatherTool(asyncCitySchema(), WEATHER_JSON),
    good: { city: 'OSLO' },
    badMessage: 'city: Unknown city',
    json: WEATHER_JSON,
  },
];

describe.each(libraries)('tool parameters from $name', ({ tool, good, badMessage, json }) => {
  it('runs good arguments with the value the schema returns (defaults and transforms applied)', async () => {
    expect(await prepareOne(tool(), { city: 'Oslo' })).toMatchObject({ status: 'ready', args: good });
  });

  it('answers bad arguments with the invalid-arguments result the model sees', async () => {
    expect(await prepareOne(tool(), { city: 1 })).toMatchObject({
      status: 'invalid_args',
      message: `Invalid arguments for tool 'weather': ${badMessage}. Please retry with corrected arguments.`,
    });
  });

  it("gives providers the library's JSON Schema, without $schema", async () => {
    expect((await toolSpec(tool())).parameters).toEqual(json);
  });
});

describe('JSON Schema for providers', () => {
  it('uses the JSON Schema given on the tool over the library converter', async () => {
    const given = { type: 'object', properties: { city: { type: 'string', enum: ['Oslo'] } } };
    expect((await toolSpec(weatherTool(z.object({ city: z.string() }), given))).parameters).toBe(given);
  });

  it('keeps the descriptions of a zod < 4.2 schema made by another copy of zod', async () => {
    // Another copy: its descriptions live in its own registry, and it has no Standard JSON Schema.
    const ownRegistry = z.registry<{ description: string }>();
    const city = z.string();
    ownRegistry.add(city, { description: 'City name' });
    Object.defineProperty(city, 'meta', { value: () => ownRegistry.get(city) });
    const current = z.object({ city });
    const older = Object.create(current, {
      '~standard': { value: { ...current['~standard'], jsonSchema: undefined } },
    });
    const tool = weatherTool(older);
    // tandem converts it with its own zod, imported when the spec is first built.
    expect((await toolSpec(tool)).parameters).toEqual({
      type: 'object',
      properties: { city: CITY },
      required: ['city'],
    });
  });

  it('leaves types JSON cannot carry open for zod instead of failing', async () => {
    const tool = weatherTool(z.object({ when: z.date() }));
    expect((await toolSpec(tool)).parameters).toMatchObject({ properties: { when: {} }, required: ['when'] });
  });

  it('refuses a library schema without a converter, saying how to add one', () => {
    expect(() => weatherTool(v.object({ city: v.string() }))).toThrow(ConfigError);
    expect(() => weatherTool(v.object({ city: v.string() }))).toThrow(
      /Tool 'weather' parameters: a valibot schema has no JSON Schema converter.*toStandardJsonSchema/,
    );
  });

  it('accepts a library schema without a converter when its JSON Schema is given', async () => {
    const tool = weatherTool(v.object({ city: v.string() }), WEATHER_JSON);
    expect((await toolSpec(tool)).parameters).toBe(WEATHER_JSON);
    expect(await prepareOne(tool, { city: 'Oslo' })).toMatchObject({ status: 'ready' });
  });

  it('turns a converter that throws into a ConfigError naming the tool', () => {
    const dated = toStandardJsonSchema(v.object({ when: v.date() }));
    expect(() => weatherTool(dated)).toThrow(
      /^Tool 'weather' parameters: converting to JSON Schema failed \(.*date.*\)/,
    );
  });
});

describe('what is not a schema', () => {
  const zod3Like = { _def: { typeName: 'ZodObject' }, parse: () => ({}) };

  it('refuses a zod 3 schema with the import that fixes it', () => {
    expect(() => weatherTool(zod3Like as never)).toThrow(ConfigError);
    expect(() => weatherTool(zod3Like as never)).toThrow(
      "Tool 'weather' parameters: zod 3 schemas are not supported: import { z } from 'zod/v4'",
    );
  });

  it('refuses a zod 3.24+ schema (a Standard Schema zod cannot convert) the same way', () => {
    const standardZod3 = {
      ...zod3Like,
      '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) },
    };
    expect(() => weatherTool(standardZod3 as never)).toThrow(/import \{ z \} from 'zod\/v4'/);
  });

  it.each([
    ['undefined', undefined],
    ['a plain object', { city: 'string' }],
    ['a string', 'object'],
  ])('refuses %s as parameters with a ConfigError', (_, parameters) => {
    expect(() => weatherTool(parameters as never)).toThrow(
      /^Tool 'weather' parameters must be a zod 4 schema, a Standard Schema .* or jsonSchema\(\{\.\.\.\}\), got /,
    );
  });

  it('refuses a hand-built tool whose parameters are not a schema when it is registered', () => {
    const handBuilt = { ...weatherTool(asyncCitySchema(), WEATHER_JSON), parameters: {} } as never;
    expect(() => new ToolRegistry([handBuilt])).toThrow(ConfigError);
  });

  it('answers a validator that throws with an invalid-arguments result instead of failing the turn', async () => {
    const throwing: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => {
          throw new Error('lookup service down');
        },
      },
    };
    expect(await prepareOne(weatherTool(throwing, WEATHER_JSON), { city: 'Oslo' })).toMatchObject({
      status: 'invalid_args',
      message: expect.stringContaining("'weather': Validation failed: lookup service down."),
    });
  });
});

describe('skills with Standard Schema parameters and output', () => {
  const forecast = defineSkill({
    id: 'forecast',
    description: 'Forecast',
    category: 'test',
    parameters: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number(), 3) })),
    output: type({ summary: 'string' }),
    run: ({ city, days }) => ({ summary: `${city}: ${days} days` }),
  });

  it('validates parameters, applies their defaults and checks the output', async () => {
    const skills = new SkillRegistry({ skills: [forecast] });
    expect(await skills.invokeDirect('forecast', { city: 'Oslo' })).toEqual({ summary: 'Oslo: 3 days' });
    await expect(skills.invokeDirect('forecast', { city: 7 })).rejects.toMatchObject({
      kind: 'invalid_parameters',
      issues: ['city: Invalid type: Expected string but received 7'],
    });
    expect((await skills.describe())[0]!.parameters).toMatchObject({ required: ['city'] });
  });

  it('makes a skill of a tool whose JSON Schema was given by hand', async () => {
    const skill = toolSkill(weatherTool(v.object({ city: v.string() }), WEATHER_JSON));
    expect(skill.parametersSchema).toBe(WEATHER_JSON);
    const skills = new SkillRegistry({ skills: [skill] });
    expect(await skills.invokeDirect('weather', { city: 'Oslo' })).toEqual({ city: 'Oslo' });
  });

  it('checks the arguments a skill passes to ctx.callTool against the tool schema', async () => {
    const caller = defineSkill({
      id: 'caller',
      description: 'Calls weather',
      category: 'test',
      parameters: z.object({ city: z.unknown() }),
      output: z.unknown(),
      run: ({ city }, ctx) => ctx.callTool('weather', { city }),
    });
    const tool = weatherTool(toStandardJsonSchema(v.object({ city: v.string() })));
    const skills = new SkillRegistry({ skills: [caller], tools: [tool] });
    expect(await skills.invokeDirect('caller', { city: 'Oslo' })).toEqual({ city: 'Oslo' });
    await expect(skills.invokeDirect('caller', { city: 1 })).rejects.toMatchObject({
      kind: 'failed',
      issues: ['city: Invalid type: Expected string but received 1'],
    });
  });

  it('refuses an output that is not a schema', () => {
    expect(() =>
      defineSkill({
        id: 'broken',
        description: 'x',
        category: 'test',
        parameters: z.object({}),
        output: { summary: 'string' } as unknown as StandardSchemaV1,
        run: () => ({}),
      }),
    ).toThrow("Skill 'broken' output must be a zod 4 schema");
  });
});
