/**
 * Schemas as users bring them — tool parameters, skill parameters, the
 * structured output of an agent or `generateObject`: any Standard Schema v1 — zod 4 (also the
 * `zod/v4` of zod 3.25, from any copy of zod), valibot, arktype, effect
 * schema — or `jsonSchema()`. Types are read through the Standard Schema
 * interface, never a library's classes, so a schema made by another copy of
 * a library type-checks and validates the same.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError, errorMessage } from '../core/errors.js';

/** A schema whose validated value has type `Output`; its input type is not constrained. */
export type Schema<Output = unknown> = StandardSchemaV1<unknown, Output>;

/** The validated type of schema `S` (defaults and transforms applied). */
export type SchemaOutput<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

/** One problem found by a schema, with its path flattened to keys. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Outcome of {@link validateSchema}. */
export type SchemaValidation<T> =
  | { success: true; data: T }
  | { success: false; issues: readonly SchemaIssue[] };

/** The fix for a zod 3 schema, which tandem cannot convert: one import away on zod 3.25. */
export const ZOD3_HINT =
  "zod 3 schemas are not supported: import { z } from 'zod/v4' (zod 3.25 and every zod 4) instead of 'zod'";

/**
 * Throws unless `value` is a Standard Schema v1. `label` names the value in
 * the message, e.g. `Tool 'add' parameters`.
 * @throws ConfigError naming `label`, with the fix for a zod 3 schema.
 */
export function assertSchema(value: unknown, label: string): asserts value is StandardSchemaV1 {
  const standard = propertyOf(value, '~standard');
  if (typeof propertyOf(standard, 'validate') === 'function') return;
  if (isZod3Schema(value)) throw new ConfigError(`${label}: ${ZOD3_HINT}`);
  throw new ConfigError(
    `${label} must be a zod 4 schema, a Standard Schema (valibot, arktype, …) or jsonSchema({...}), got ${kindOf(value)}`,
  );
}

/**
 * Validates `value` with `schema`, awaiting asynchronous schemas. A validator
 * that throws fails validation with its message rather than escaping.
 */
export async function validateSchema<T>(schema: Schema<T>, value: unknown): Promise<SchemaValidation<T>> {
  return checkSchema(schema, value);
}

/**
 * {@link validateSchema}, synchronous for a synchronous schema: the outcome
 * itself, or a promise of it when the schema validates asynchronously.
 */
export function checkSchema<T>(
  schema: Schema<T>,
  value: unknown,
): SchemaValidation<T> | Promise<SchemaValidation<T>> {
  let result: StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>>;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    return thrown(error);
  }
  return result instanceof Promise ? result.then(outcomeOf, thrown) : outcomeOf(result);
}

function thrown(error: unknown): SchemaValidation<never> {
  return { success: false, issues: [{ path: [], message: `Validation failed: ${errorMessage(error)}` }] };
}

function outcomeOf<T>(result: StandardSchemaV1.Result<T>): SchemaValidation<T> {
  if (!result.issues) return { success: true, data: result.value };
  return {
    success: false,
    issues: result.issues.map((issue) => ({
      path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
      message: issue.message,
    })),
  };
}

/** A zod 3 (classic) schema: it has zod's `_def` but not zod 4's `_zod`. */
export function isZod3Schema(value: unknown): boolean {
  return propertyOf(value, '_def') !== undefined && propertyOf(value, '_zod') === undefined;
}

/** A property of any value, without throwing on `null` or primitives (arktype schemas are functions). */
export function propertyOf(value: unknown, key: string): unknown {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object that is not a schema' : `a ${typeof value}`;
}

/** `path: message` lines, one per issue; an issue of the value itself is named `root`. */
export function issueLines(issues: readonly SchemaIssue[], root = '(root)'): string[] {
  return issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : root}: ${i.message}`);
}
