/**
 * A tool's parameters are an object: every provider's function calling takes
 * a JSON Schema of `type: 'object'` and rejects anything else, so a
 * `z.number()` would only fail at the first request, far from its cause.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type { JsonSchema } from '../model/types.js';
import { propertyOf } from './schema.js';

const FIX =
  "wrap the value in an object, e.g. z.object({ value: z.number() }), or a JSON Schema of type 'object'";

/**
 * zod types whose JSON Schema is never an object. Wrappers that keep their
 * inner type's JSON Schema are looked through (see {@link zodInnerType});
 * the rest (unions, lazy, any…) are judged once their JSON Schema is made.
 */
const NOT_OBJECT = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'null',
  'undefined',
  'void',
  'never',
  'nan',
  'literal',
  'enum',
  'template_literal',
  'date',
  'array',
  'tuple',
  'set',
  'map',
  'file',
  'nullable',
]);

/**
 * Throws unless `json` has `type: 'object'`.
 * @throws ConfigError naming `label` and the type found.
 */
export function assertObjectParameters(json: JsonSchema, label: string): void {
  if (json.type === 'object') return;
  throw new ConfigError(
    `${label} must be an object schema (JSON Schema type 'object'), got ${describe(json)}: ${FIX}`,
  );
}

/**
 * What can be told of a zod schema before its JSON Schema exists (a zod
 * older than 4.2, converted once tandem's zod is imported): a zod type whose
 * JSON Schema is never an object is refused at once. Schemas that convert
 * themselves are left to {@link assertObjectParameters}.
 * @throws ConfigError naming `label` and the zod type.
 */
export function assertZodObjectParameters(schema: unknown, label: string): void {
  // With a converter of its own, the JSON Schema is made now and judged whole.
  if (typeof propertyOf(propertyOf(propertyOf(schema, '~standard'), 'jsonSchema'), 'input') === 'function')
    return;
  const type = zodInnerType(schema);
  if (type !== undefined && NOT_OBJECT.has(type)) {
    throw new ConfigError(
      `${label} must be an object schema (JSON Schema type 'object'), got a zod ${type} schema: ${FIX}`,
    );
  }
}

/** The zod type under wrappers that give their inner type's input JSON Schema. */
function zodInnerType(schema: unknown): string | undefined {
  let current = schema;
  // Bounded: a schema nests wrappers a handful deep; a cycle must not hang definition.
  for (let depth = 0; depth < 32; depth++) {
    const def = propertyOf(propertyOf(current, '_zod'), 'def');
    const type = propertyOf(def, 'type');
    if (typeof type !== 'string') return undefined;
    if (type === 'pipe') current = propertyOf(def, 'in');
    else if (WRAPPERS.has(type)) current = propertyOf(def, 'innerType');
    else return type;
  }
  return undefined;
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function describe(json: JsonSchema): string {
  const { type } = json;
  if (typeof type === 'string') return `type '${type}'`;
  if (Array.isArray(type)) return `type ${JSON.stringify(type)}`;
  if (Array.isArray(json.anyOf) || Array.isArray(json.oneOf)) return 'a union (anyOf/oneOf) without a type';
  return 'a schema without a type';
}
