/**
 * The JSON Schema providers get for a tool's parameters, made by the schema
 * library's own converter: Standard JSON Schema (zod ≥ 4.2, arktype ≥ 2.1.28,
 * valibot through `toStandardJsonSchema`), else zod 4 core's `toJSONSchema`
 * for older zod 4 schemas. A JSON Schema the user gives wins over both.
 *
 * Older zod schemas are converted by tandem's zod, which is imported on first
 * use (see `lazy-zod.ts`): until it is, their JSON Schema is an empty object,
 * filled in place once zod is in, and {@link jsonSchemasReady} says when.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { z } from 'zod/v4';
import { ConfigError, errorMessage } from '../core/errors.js';
import { loadedZod, loadZod, type Zod } from './lazy-zod.js';
import { isRecord } from './records.js';
import { isZod3Schema, propertyOf, ZOD3_HINT } from './schema.js';
import type { JsonSchema } from './types.js';

const GIVE_IT =
  'pass the JSON Schema yourself (`jsonSchema` on a tool, `parametersSchema` on a skill) or use a library that converts (zod ≥ 4.2, arktype ≥ 2.1.28, valibot with toStandardJsonSchema from @valibot/to-json-schema)';

/**
 * JSON Schema of the input `schema` accepts, without `$schema`. `given`, when
 * set, is used as is. `label` names the schema in errors. The JSON Schema of
 * a zod schema older than zod 4.2 is filled in when tandem's zod is imported
 * (see {@link jsonSchemasReady}) unless it already is. `check`, when set,
 * judges the JSON Schema made (or given).
 * @throws ConfigError naming `label` when no JSON Schema can be had, the converter fails, or `check` throws.
 */
export function parametersJsonSchema(
  schema: StandardSchemaV1,
  label: string,
  given?: JsonSchema,
  check?: JsonSchemaCheck,
): JsonSchema {
  if (given !== undefined) {
    if (!isRecord(given)) throw new ConfigError(`${label}: the JSON Schema given must be an object`);
    return checked(given, label, check);
  }
  const standard = schema['~standard'];
  const converter = propertyOf(standard, 'jsonSchema');
  if (typeof propertyOf(converter, 'input') === 'function') {
    // zod throws on types JSON cannot carry (dates, bigints) unless told to leave them open.
    const libraryOptions = standard.vendor === 'zod' ? { unrepresentable: 'any' } : undefined;
    const json = converted(label, () =>
      (converter as StandardJSONSchemaV1.Converter).input({ target: 'draft-2020-12', libraryOptions }),
    );
    return checked(json, label, check);
  }
  if (propertyOf(schema, '_zod') !== undefined) {
    const zod = loadedZod();
    if (!zod) return whenZodLoads(schema, label, check);
    return checked(
      converted(label, () => zodJsonSchema(zod, schema)),
      label,
      check,
    );
  }
  throw new ConfigError(
    isZod3Schema(schema)
      ? `${label}: ${ZOD3_HINT}`
      : `${label}: a ${standard.vendor} schema has no JSON Schema converter; ${GIVE_IT}`,
  );
}

/**
 * A caller's rule for the JSON Schema made, such as "tool parameters are an
 * object": throws a {@link ConfigError} naming `label`. For a zod schema
 * older than zod 4.2 it runs when the JSON Schema is filled in, and its error
 * is then {@link jsonSchemasReady}'s.
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

interface Waiting {
  json: JsonSchema;
  schema: StandardSchemaV1;
  label: string;
  check: JsonSchemaCheck | undefined;
}

const waiting: Waiting[] = [];
let filling: Promise<void> | undefined;

/** An empty JSON Schema, filled in once zod is imported. */
function whenZodLoads(
  schema: StandardSchemaV1,
  label: string,
  check: JsonSchemaCheck | undefined,
): JsonSchema {
  const json: JsonSchema = {};
  waiting.push({ json, schema, label, check });
  if (!filling) startFilling();
  return json;
}

function startFilling(): void {
  const fill = loadZod().then(fillWaiting, (error: unknown) => {
    // The schemas stay waiting: the next `jsonSchemasReady()` tries the import again.
    filling = undefined;
    throw error;
  });
  // Nobody awaiting it must not crash the process.
  fill.catch(() => {});
  filling = fill;
}

/**
 * Fills every waiting schema. One that cannot be converted does not stop the
 * others; its error stays the fill's, for every later caller: the tool is
 * misconfigured, not momentarily unavailable.
 */
function fillWaiting(zod: Zod): void {
  let failure: unknown;
  for (const { json, schema, label, check } of waiting.splice(0)) {
    try {
      Object.assign(
        json,
        checked(
          converted(label, () => zodJsonSchema(zod, schema)),
          label,
          check,
        ),
      );
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
  filling = undefined;
}

/**
 * Resolves when every JSON Schema made so far is filled in: `undefined` when
 * none is waiting (the usual case — nothing to await), else a promise, which
 * rejects with the {@link ConfigError} of a schema that cannot be converted.
 * Code that sends tool or output JSON Schemas to a model awaits it first.
 */
export function jsonSchemasReady(): Promise<void> | undefined {
  if (!filling && waiting.length > 0) startFilling();
  return filling;
}
