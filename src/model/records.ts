/**
 * The one test for "a JSON object": arguments, schemas and schema nodes are
 * all checked with it.
 * @module
 */

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
