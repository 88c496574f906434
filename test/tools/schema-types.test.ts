/**
 * `execute`'s arguments are inferred from the Standard Schema types of the
 * parameters, whatever library (or copy of it) made them. Checked by tsc.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod/v4';
import { defineSkill } from '../../src/skills/define-skill.js';
import { jsonSchema } from '../../src/tools/json-schema.js';
import { defineTool } from '../../src/tools/types.js';

type Weather = { city: string; days: number };

describe('argument types', () => {
  it('come from a zod schema, defaults applied', () => {
    defineTool({
      name: 'zod',
      description: '',
      parameters: z.object({ city: z.string(), days: z.number().default(3) }),
      execute: (args) => expectTypeOf(args).toEqualTypeOf<Weather>(),
    });
  });

  it('come from a valibot schema', () => {
    defineTool({
      name: 'valibot',
      description: '',
      parameters: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number(), 3) })),
      execute: (args) => expectTypeOf(args).toEqualTypeOf<Weather>(),
    });
  });

  it('come from an arktype type', () => {
    defineTool({
      name: 'arktype',
      description: '',
      parameters: type({ city: 'string', days: 'number' }),
      execute: (args) => expectTypeOf(args).toEqualTypeOf<Weather>(),
    });
  });

  it('come from the type parameter of jsonSchema()', () => {
    defineTool({
      name: 'json',
      description: '',
      parameters: jsonSchema<Weather>({ type: 'object' }),
      execute: (args) => expectTypeOf(args).toEqualTypeOf<Weather>(),
    });
  });

  it('come from the Standard Schema types alone (a schema from another copy of a library)', () => {
    const foreign: StandardSchemaV1<{ city: string }, Weather> = {
      '~standard': { version: 1, vendor: 'zod', validate: (value) => ({ value: value as Weather }) },
    };
    defineTool({
      name: 'foreign',
      description: '',
      parameters: foreign,
      jsonSchema: { type: 'object' },
      execute: (args) => expectTypeOf(args).toEqualTypeOf<Weather>(),
    });
  });

  it('type skill parameters, and the output run must return, from their schemas', () => {
    defineSkill({
      id: 'typed',
      description: '',
      category: 'test',
      parameters: type({ city: 'string', days: 'number' }),
      output: z.object({ summary: z.string() }),
      run: (params) => {
        expectTypeOf(params).toEqualTypeOf<Weather>();
        return { summary: params.city };
      },
    });
  });
});
