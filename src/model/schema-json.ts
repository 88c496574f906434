/**
 * The JSON Schema providers get for a tool's parameters, made by the schema
 * library's own converter: Standard JSON Schema (zod ≥ 4.2, arktype ≥ 2.1.28,
 * valibot through `toStandardJsonSchema`), else zod 4 core's `toJSONSchema`
 * for older zod 4 schemas. A JSON Schema the user gives wins over both.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { z } from 'zod/v4';
import { ConfigError, errorMessage } from '../core/errors.js';
import { isRecord } from './records.js';
import { isZod3Schema, propertyOf, ZOD3_HINT } from './schema.js';
import type { JsonSchema } from './types.js';

const GIVE_IT =
  'pass the JSON Schema yourself (`jsonSchema` on a tool, `parametersSchema` on a skill) or use a library that converts (zod ≥ 4.2, arktype ≥ 2.1.28, valibot with toStandardJsonSchema from @valibot/to-json-schema)';

/**
 * JSON Schema of the input `schema` accepts, without `$schema`. `given`, when
 * set, is used as is. `label` names the schema in errors.
 * @throws ConfigError naming `label` when no JSON Schema can be had, or the converter fails.
 */
export function parametersJsonSchema(
  schema: StandardSchemaV1,
  label: string,
  given?: JsonSchema,
): JsonSchema {
  if (given !== undefined) {
    if (!isRecord(given)) throw new ConfigError(`${label}: the JSON Schema given must be an object`);
    return given;
  }
  let converted: unknown;
  try {
    converted = convert(schema);
  } catch (error) {
    throw new ConfigError(`${label}: converting to JSON Schema failed (${errorMessage(error)}); ${GIVE_IT}`);
  }
  if (converted === undefined) {
    const vendor = schema['~standard'].vendor;
    throw new ConfigError(
      isZod3Schema(schema)
        ? `${label}: ${ZOD3_HINT}`
        : `${label}: a ${vendor} schema has no JSON Schema converter; ${GIVE_IT}`,
    );
  }
  if (!isRecord(converted)) throw new ConfigError(`${label}: the converter returned no JSON Schema object`);
  const json = { ...converted };
  delete json.$schema;
  return json;
}

/** The library's own conversion, or undefined when it has none. */
function convert(schema: StandardSchemaV1): unknown {
  const standard = schema['~standard'];
  const converter = propertyOf(standard, 'jsonSchema');
  if (typeof propertyOf(converter, 'input') === 'function') {
    // zod throws on types JSON cannot carry (dates, bigints) unless told to leave them open.
    const libraryOptions = standard.vendor === 'zod' ? { unrepresentable: 'any' } : undefined;
    return (converter as StandardJSONSchemaV1.Converter).input({ target: 'draft-2020-12', libraryOptions });
  }
  if (propertyOf(schema, '_zod') === undefined) return undefined;
  return z.toJSONSchema(schema as z.core.$ZodType, { io: 'input', unrepresentable: 'any', metadata });
}

/**
 * zod keeps `.describe()` and `.meta()` in a registry per copy of zod, and a
 * schema's own `.meta()` reads its copy's: so the descriptions of a schema
 * made by another copy of zod than tandem's still reach the model.
 */
const metadata = {
  get: (schema: z.core.$ZodType) => {
    const meta = propertyOf(schema, 'meta');
    return typeof meta === 'function' ? meta.call(schema) : z.globalRegistry.get(schema);
  },
} as unknown as z.core.$ZodRegistry<Record<string, unknown>>;
