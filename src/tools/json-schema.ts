/**
 * `jsonSchema()`: tool parameters declared as a plain JSON Schema object, for
 * schemas that already exist as JSON (OpenAPI, MCP, a config file) or code
 * that uses no schema library.
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError } from '../core/errors.js';
import type { JsonSchema } from '../model/types.js';
import { checkJsonSchema } from './json-schema-check.js';
import { isRecord } from './records.js';

/** Options of {@link jsonSchema}. */
export interface JsonSchemaOptions<T> {
  /**
   * Validates (and may transform) arguments, returning a Standard Schema
   * result: `{ value }` or `{ issues: [{ message, path? }] }`; may be async.
   * Default: a structural check of the common keywords (type, required,
   * properties, enum, bounds…) that lets through what it cannot judge.
   */
  validate?(value: unknown): StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>>;
}

/** Parameters made by {@link jsonSchema}: a Standard Schema that is also a Standard JSON Schema. */
export interface JsonSchemaParameters<T> {
  readonly '~standard': StandardSchemaV1.Props<T, T> & StandardJSONSchemaV1.Props<T, T>;
}

/**
 * Declares parameters from a plain JSON Schema. `T` is the type `execute`
 * receives (default: any object); nothing checks that it matches the schema.
 * Providers get `schema` as given, less any `$schema`.
 *
 * ```ts
 * const weather = defineTool({
 *   name: 'weather',
 *   description: 'Current weather of a city',
 *   parameters: jsonSchema<{ city: string }>({
 *     type: 'object',
 *     properties: { city: { type: 'string' } },
 *     required: ['city'],
 *   }),
 *   execute: ({ city }) => lookUp(city),
 * });
 * ```
 * @throws ConfigError when `schema` is not an object or `validate` not a function.
 */
export function jsonSchema<T = Record<string, unknown>>(
  schema: JsonSchema,
  options: JsonSchemaOptions<T> = {},
): JsonSchemaParameters<T> {
  if (!isRecord(schema)) throw new ConfigError('jsonSchema() takes a JSON Schema object');
  if (options.validate !== undefined && typeof options.validate !== 'function') {
    throw new ConfigError('jsonSchema(): `validate` must be a function');
  }
  const given = () => schema;
  const check = (value: unknown): StandardSchemaV1.Result<T> => {
    const issues = checkJsonSchema(schema, value);
    return issues.length > 0 ? { issues } : { value: value as T };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'tandem',
      validate: (value) => (options.validate ? options.validate(value) : check(value)),
      jsonSchema: { input: given, output: given },
    },
  };
}
