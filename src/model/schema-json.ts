/**
 * The JSON Schema providers get for a schema (tool or skill parameters,
 * structured output), made by the schema library's own converter: Standard
 * JSON Schema (zod ≥ 4.2, arktype ≥ 2.1.28, valibot through
 * `toStandardJsonSchema`), else zod 4 core's `toJSONSchema` for older zod 4
 * schemas. A JSON Schema the user gives wins over both.
 *
 * Older zod schemas and tandem's own (see `lazySchema`) are converted by
 * tandem's zod, imported on first use (see `lazy-zod.ts`), so their JSON
 * Schema is asynchronous: {@link jsonSchemaOf} awaits the import where a
 * JSON Schema is needed; {@link jsonSchemaNow} makes what needs no import, at
 * definition. Each schema object is converted once.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { z } from 'zod/v4';
import { ConfigError, errorMessage } from '../core/errors.js';
import { isLazySchema, loadedZod, loadZod, type Zod } from './lazy-zod.js';
import { isRecord } from './records.js';
import { isZod3Schema, propertyOf, ZOD3_HINT } from './schema.js';
import type { JsonSchema } from './types.js';

const GIVE_IT =
  'pass the JSON Schema yourself (`jsonSchema` on a tool, `parametersSchema` on a skill) or use a library that converts (zod ≥ 4.2, arktype ≥ 2.1.28, valibot with toStandardJsonSchema from @valibot/to-json-schema)';

/** How {@link jsonSchemaOf} gets and judges a JSON Schema besides converting the schema. */
export interface JsonSchemaHow {
  /** A JSON Schema to use as is instead of converting. */
  given?: JsonSchema | undefined;
  /** Judges the JSON Schema made (or given); throws to reject it. */
  check?: JsonSchemaCheck | undefined;
}

/**
 * JSON Schema of the input `schema` accepts, without `$schema`, importing
 * tandem's zod first when the schema needs it. `given`, when set, is used as
 * is. `label` names the schema in errors. `check`, when set, judges the JSON
 * Schema made (or given).
 * @throws ConfigError (as a rejection) naming `label` when no JSON Schema can be had, the converter fails,
 *   or `check` throws.
 */
export async function jsonSchemaOf(
  schema: StandardSchemaV1,
  label: string,
  how?: JsonSchemaHow,
): Promise<JsonSchema> {
  const now = jsonSchemaNow(schema, label, how);
  if (now !== undefined) return now;
  await (isLazySchema(schema) ? schema.load() : loadZod());
  return jsonSchemaNow(schema, label, how) as JsonSchema;
}

/**
 * {@link jsonSchemaOf} when no import is needed: `undefined` when the schema
 * waits on tandem's zod (an older zod schema, or one of tandem's own, before
 * zod is imported). For checks at definition, before any request.
 * @throws ConfigError naming `label` when no JSON Schema can be had, the converter fails, or `check` throws.
 */
export function jsonSchemaNow(
  schema: StandardSchemaV1,
  label: string,
  { given, check }: JsonSchemaHow = {},
): JsonSchema | undefined {
  if (given !== undefined) {
    if (!isRecord(given)) throw new ConfigError(`${label}: the JSON Schema given must be an object`);
    return checked(given, label, check);
  }
  let json = made.get(schema);
  if (json === undefined) {
    json = convertNow(schema, label);
    if (json === undefined) return undefined;
    made.set(schema, json);
  }
  return checked(json, label, check);
}

/** Conversions made, per schema object: a tool's spec is rebuilt per registry, its schema converted once. */
const made = new WeakMap<object, JsonSchema>();

function convertNow(schema: StandardSchemaV1, label: string): JsonSchema | undefined {
  const standard = schema['~standard'];
  const converter = propertyOf(standard, 'jsonSchema');
  if (typeof propertyOf(converter, 'input') === 'function') {
    // zod throws on types JSON cannot carry (dates, bigints) unless told to leave them open.
    const libraryOptions = standard.vendor === 'zod' ? { unrepresentable: 'any' } : undefined;
    return converted(label, () =>
      (converter as StandardJSONSchemaV1.Converter).input({ target: 'draft-2020-12', libraryOptions }),
    );
  }
  const zod = loadedZod();
  if (isLazySchema(schema)) return zod ? convertNow(schema.with(zod), label) : undefined;
  if (propertyOf(schema, '_zod') !== undefined) {
    return zod ? converted(label, () => zodJsonSchema(zod, schema)) : undefined;
  }
  throw new ConfigError(
    isZod3Schema(schema)
      ? `${label}: ${ZOD3_HINT}`
      : `${label}: a ${standard.vendor} schema has no JSON Schema converter; ${GIVE_IT}`,
  );
}

/**
 * A caller's rule for the JSON Schema made, such as "tool parameters are an
 * object": throws a {@link ConfigError} naming `label`. It runs whenever the
 * JSON Schema is asked for; for a schema that waits on tandem's zod, first
 * when {@link jsonSchemaOf} makes it.
 */
export type JsonSchemaCheck = (json: JsonSchema, label: string) => void;

function checked(json: JsonSchema, label: string, check: JsonSchemaCheck | undefined): JsonSchema {
  check?.(json, label);
  return json;
}

/** What `convert` returns, checked and without `$schema`. */
function converted(label: string, convert: () => unknown): JsonSchema {
  let json: unknown;
  try {
    json = convert();
  } catch (error) {
    throw new ConfigError(`${label}: converting to JSON Schema failed (${errorMessage(error)}); ${GIVE_IT}`);
  }
  if (!isRecord(json)) throw new ConfigError(`${label}: the converter returned no JSON Schema object`);
  const out = { ...json };
  delete out.$schema;
  return out;
}

function zodJsonSchema(zod: Zod, schema: StandardSchemaV1): unknown {
  return zod.toJSONSchema(schema as unknown as z.core.$ZodType, {
    io: 'input',
    unrepresentable: 'any',
    metadata: metadataOf(zod),
  });
}

/**
 * zod keeps `.describe()` and `.meta()` in a registry per copy of zod, and a
 * schema's own `.meta()` reads its copy's: so the descriptions of a schema
 * made by another copy of zod than tandem's still reach the model.
 */
function metadataOf(zod: Zod): z.core.$ZodRegistry<Record<string, unknown>> {
  return {
    get: (schema: z.core.$ZodType) => {
      const meta = propertyOf(schema, 'meta');
      return typeof meta === 'function' ? meta.call(schema) : zod.globalRegistry.get(schema);
    },
  } as unknown as z.core.$ZodRegistry<Record<string, unknown>>;
}
