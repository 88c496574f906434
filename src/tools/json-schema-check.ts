/**
 * A small JSON Schema check for arguments declared in plain JSON Schema
 * (`jsonSchema()` without `validate`, MCP tools). It knows the keywords
 * tool schemas use — `type`, `properties`, `required`,
 * `additionalProperties`, `items`, `enum`, `const`, numeric bounds, lengths,
 * `pattern`, `allOf`/`anyOf`/`oneOf` — and accepts whatever else it meets
 * (`$ref`, `format`, conditionals): its job is to hand the model its mistakes
 * before a call runs, while the tool or MCP server stays the final judge, so
 * it may miss an error but never invents one. `oneOf` is checked as `anyOf`.
 * @module
 */
import type { JsonSchema } from '../model/types.js';
import { isRecord } from './records.js';
import type { SchemaIssue } from './schema.js';

type Path = readonly PropertyKey[];

/** The problems of `value` against `schema`; empty when it passes. */
export function checkJsonSchema(schema: JsonSchema, value: unknown): SchemaIssue[] {
  return new IssueCollector().check(schema, value, []);
}

/** Walks a value down its schema, collecting the problems it finds (a fresh one per walk). */
class IssueCollector {
  readonly issues: SchemaIssue[] = [];

  /** Checks `value` at `path`; returns every issue collected so far. */
  check(schema: unknown, value: unknown, path: Path): SchemaIssue[] {
    const { issues } = this;
    if (schema === false) {
      issues.push({ path, message: 'No value is allowed here' });
      return issues;
    }
    if (!isRecord(schema)) return issues;
    const local = typeProblem(schema, value) ?? valueProblem(schema, value);
    if (local !== undefined) {
      // A value of the wrong type would only repeat the same mistake below.
      issues.push({ path, message: local });
      return issues;
    }
    if (Array.isArray(value)) this.checkItems(schema, value, path);
    else if (isRecord(value)) this.checkProperties(schema, value, path);
    this.checkCombinators(schema, value, path);
    return issues;
  }

  private checkItems(schema: Record<string, unknown>, value: readonly unknown[], path: Path): void {
    // Tuples (`prefixItems`, draft-07 array `items`) are left to the tool.
    if (schema.prefixItems !== undefined || Array.isArray(schema.items)) return;
    for (const [i, item] of value.entries()) this.check(schema.items, item, [...path, i]);
  }

  private checkProperties(schema: Record<string, unknown>, value: Record<string, unknown>, path: Path): void {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === 'string' && value[key] === undefined) {
          this.issues.push({ path: [...path, key], message: 'Invalid input: required property is missing' });
        }
      }
    }
    const extra = schema.patternProperties === undefined ? schema.additionalProperties : undefined;
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) this.check(properties[key], item, [...path, key]);
      else if (extra === false)
        this.issues.push({ path: [...path, key], message: `Unrecognized key: "${key}"` });
      else this.check(extra, item, [...path, key]);
    }
  }

  private checkCombinators(schema: Record<string, unknown>, value: unknown, path: Path): void {
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) this.check(branch, value, path);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      if (!branches.some((branch) => passes(branch, value))) {
        this.issues.push({ path, message: 'Invalid input: matches none of the allowed shapes' });
      }
    }
  }
}

function typeProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  const { type } = schema;
  if (type === undefined || (value === null && schema.nullable === true)) return undefined;
  const types = (Array.isArray(type) ? type : [type]).map(String);
  if (types.some((t) => hasType(t, value))) return undefined;
  return `Invalid input: expected ${types.join(' or ')}, received ${typeName(value)}`;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return Number.isFinite(value);
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      return true;
  }
}

function valueProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    return `Invalid option: expected one of ${schema.enum.map((option) => JSON.stringify(option)).join('|')}`;
  }
  if ('const' in schema && !sameJson(schema.const, value)) {
    return `Invalid input: expected ${JSON.stringify(schema.const)}`;
  }
  if (typeof value === 'number') return numberProblem(schema, value);
  if (typeof value === 'string') return stringProblem(schema, value);
  if (Array.isArray(value)) return sizeProblem(schema, 'items', value.length);
  return undefined;
}

function numberProblem(schema: Record<string, unknown>, value: number): string | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && value < minimum) return `Too small: expected number to be >=${minimum}`;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) {
    return `Too small: expected number to be >${exclusiveMinimum}`;
  }
  if (typeof maximum === 'number' && value > maximum) return `Too big: expected number to be <=${maximum}`;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) {
    return `Too big: expected number to be <${exclusiveMaximum}`;
  }
  return undefined;
}

function stringProblem(schema: Record<string, unknown>, value: string): string | undefined {
  // JSON Schema counts code points, not UTF-16 units.
  const size = sizeProblem(schema, 'characters', [...value].length);
  if (size !== undefined || typeof schema.pattern !== 'string') return size;
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, 'u');
  } catch {
    return undefined;
  }
  return pattern.test(value) ? undefined : `Invalid string: must match pattern ${schema.pattern}`;
}

/** Checks `size` against `minItems`/`maxItems` (`items`) or `minLength`/`maxLength` (`characters`). */
function sizeProblem(
  schema: Record<string, unknown>,
  unit: 'items' | 'characters',
  size: number,
): string | undefined {
  const min = unit === 'items' ? schema.minItems : schema.minLength;
  const max = unit === 'items' ? schema.maxItems : schema.maxLength;
  if (typeof min === 'number' && size < min) return `Too small: expected at least ${min} ${unit}`;
  if (typeof max === 'number' && size > max) return `Too big: expected at most ${max} ${unit}`;
  return undefined;
}

function passes(schema: unknown, value: unknown): boolean {
  return new IssueCollector().check(schema, value, []).length === 0;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Equality of JSON values, ignoring key order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}
