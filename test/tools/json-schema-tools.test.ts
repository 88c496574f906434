/** `jsonSchema()`: tools declared with a plain JSON Schema, and the small check that validates them. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { jsonSchema } from '../../src/tools/json-schema.js';
import { checkJsonSchema } from '../../src/tools/json-schema-check.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool, type Tool, toolSpec } from '../../src/tools/types.js';
import { toolCall } from './helpers.js';

const SEARCH = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    sort: { enum: ['new', 'top'] },
  },
  required: ['query'],
  additionalProperties: false,
};

const search = defineTool({
  name: 'search',
  description: 'Search the index',
  parameters: jsonSchema<{ query: string; limit?: number; sort?: 'new' | 'top' }>(SEARCH),
  execute: ({ query, limit = 10 }) => `${query}:${limit}`,
});

async function prepareOne(tool: Tool, args: Record<string, unknown>) {
  const turn = await prepareToolCalls(new ToolRegistry([tool]), [toolCall(tool.name, args)]);
  return turn.calls[0]!;
}

describe('jsonSchema() tools', () => {
  it('give providers the JSON Schema as written', async () => {
    expect((await toolSpec(search)).parameters).toEqual(SEARCH);
  });

  it('run good arguments unchanged', async () => {
    const args = { query: 'tandem', limit: 5, sort: 'top' };
    expect(await prepareOne(search, args)).toMatchObject({ status: 'ready', args });
  });

  it('answer bad arguments with one line per problem in the invalid-arguments result', async () => {
    expect(await prepareOne(search, { limit: 0, sort: 'old', extra: 1 })).toMatchObject({
      status: 'invalid_args',
      message:
        "Invalid arguments for tool 'search': query: Invalid input: required property is missing; " +
        'limit: Too small: expected number to be >=1; sort: Invalid option: expected one of "new"|"top"; ' +
        'extra: Unrecognized key: "extra". Please retry with corrected arguments.',
    });
  });

  it('use the validate function given, which may be async and may transform', async () => {
    const upper = defineTool({
      name: 'upper',
      description: 'Upper-case a word',
      parameters: jsonSchema<{ word: string }>(
        { type: 'object', properties: { word: { type: 'string' } } },
        {
          async validate(value) {
            const word = (value as { word?: unknown }).word;
            return typeof word === 'string' && word.length > 0
              ? { value: { word: word.toUpperCase() } }
              : { issues: [{ message: 'Say a word', path: ['word'] }] };
          },
        },
      ),
      execute: ({ word }) => word,
    });
    expect(await prepareOne(upper, { word: 'hi' })).toMatchObject({ status: 'ready', args: { word: 'HI' } });
    expect(await prepareOne(upper, { word: '' })).toMatchObject({
      status: 'invalid_args',
      message: expect.stringContaining("'upper': word: Say a word."),
    });
  });

  it('refuse a schema that is not an object, and a validate that is not a function', () => {
    expect(() => jsonSchema(undefined as never)).toThrow(ConfigError);
    expect(() => jsonSchema('object' as never)).toThrow('jsonSchema() takes a JSON Schema object');
    expect(() => jsonSchema({}, { validate: true as never })).toThrow('`validate` must be a function');
  });
});

describe('checkJsonSchema', () => {
  const messages = (schema: Record<string, unknown>, value: unknown) =>
    checkJsonSchema(schema, value).map((i) => `${i.path.join('.')}: ${i.message}`);

  it('checks types, integer and null included, and reports a wrong type once', () => {
    expect(messages({ type: 'integer', minimum: 5 }, 1.5)).toEqual([
      ': Invalid input: expected integer, received number',
    ]);
    expect(messages({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(messages({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(messages({ type: 'object' }, [])).toEqual([': Invalid input: expected object, received array']);
  });

  it('checks const and enum by JSON value, ignoring key order', () => {
    expect(messages({ const: { a: 1, b: [2] } }, { b: [2], a: 1 })).toEqual([]);
    expect(messages({ const: 'x' }, 'y')).toEqual([': Invalid input: expected "x"']);
    expect(messages({ enum: [1, 2] }, 3)).toEqual([': Invalid option: expected one of 1|2']);
  });

  it('checks bounds, lengths in code points, item counts and patterns', () => {
    expect(messages({ exclusiveMaximum: 3 }, 3)).toEqual([': Too big: expected number to be <3']);
    expect(messages({ exclusiveMinimum: 0 }, 0)).toEqual([': Too small: expected number to be >0']);
    expect(messages({ minItems: 1 }, [])).toEqual([': Too small: expected at least 1 items']);
    expect(messages({ maxLength: 2 }, '😀😀')).toEqual([]);
    expect(messages({ minLength: 3 }, 'ab')).toEqual([': Too small: expected at least 3 characters']);
    expect(messages({ maxItems: 1 }, [1, 2])).toEqual([': Too big: expected at most 1 items']);
    expect(messages({ pattern: '^[a-z]+$' }, 'A1')).toEqual([
      ': Invalid string: must match pattern ^[a-z]+$',
    ]);
    expect(messages({ pattern: '(' }, 'anything')).toEqual([]);
  });

  it('names the path of nested problems', () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'object', required: ['name'] } } },
      additionalProperties: { type: 'number' },
    };
    expect(messages(schema, { tags: [{ name: 'a' }, {}], score: 'high' })).toEqual([
      'tags.1.name: Invalid input: required property is missing',
      'score: Invalid input: expected number, received string',
    ]);
  });

  it('checks allOf branches and needs one anyOf or oneOf branch to match', () => {
    const either = { anyOf: [{ type: 'string' }, { type: 'number' }] };
    expect(messages(either, 1)).toEqual([]);
    expect(messages({ oneOf: either.anyOf }, true)).toEqual([
      ': Invalid input: matches none of the allowed shapes',
    ]);
    expect(messages({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3)).toEqual([
      ': Too big: expected number to be <=2',
    ]);
  });

  it('accepts what it cannot judge and refuses everything under a false schema', () => {
    const unknown = { $ref: '#/$defs/x', format: 'email', dependentRequired: { a: ['b'] }, not: {} };
    expect(messages(unknown, 'not an email')).toEqual([]);
    expect(messages({ prefixItems: [{ type: 'string' }] }, [1])).toEqual([]);
    const patterned = { patternProperties: { '^x-': {} }, additionalProperties: false };
    expect(messages(patterned, { 'x-a': 1 })).toEqual([]);
    expect(messages({ properties: { a: false } }, { a: 1 })).toEqual(['a: No value is allowed here']);
  });
});
