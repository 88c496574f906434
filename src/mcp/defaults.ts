/**
 * The `default`s of an MCP tool's input schema, filled into the arguments a
 * model left out before the call is sent. When tool parameters were zod
 * schemas, zod filled them; a server that reads its arguments as they come
 * (any server that does not validate with defaults of its own) would
 * otherwise see them missing.
 * @module
 */
import { isRecord } from '../tools/records.js';

/** How deep schemas are followed: far past any real input schema, short of a `$ref` cycle. */
const MAX_DEPTH = 32;

type Schema = Record<string, unknown>;

/**
 * `args` with every missing property that has a `default` in `schema` set to
 * a copy of it, in nested objects (and the objects of arrays) too. Follows
 * `properties`, `items`, `allOf` and local `$ref`s (`#/$defs/…`,
 * `#/definitions/…`); leaves `anyOf`/`oneOf` alone, since which branch
 * applies is not known. `args` itself is never changed: what changes is copied.
 */
export function withDefaults(schema: Schema, args: Record<string, unknown>): Record<string, unknown> {
  const filled = new DefaultsFill(schema).fill(schema, args);
  return isRecord(filled) ? filled : args;
}

/**
 * One {@link withDefaults} pass over a schema: the root its `$ref`s resolve
 * against and how deep the walk is, so the recursive steps take only the
 * schema and the value they are at.
 */
class DefaultsFill {
  private depth = 0;

  constructor(private readonly root: Schema) {}

  fill(schema: Schema, value: unknown): unknown {
    if (this.depth > MAX_DEPTH) return value;
    const resolved = resolveRef(schema, this.root);
    if (!resolved) return value;
    let out = value;
    if (Array.isArray(resolved.allOf)) {
      for (const part of resolved.allOf) if (isRecord(part)) out = this.fillDeeper(part, out);
    }
    if (isRecord(out) && isRecord(resolved.properties)) out = this.fillProperties(resolved.properties, out);
    if (Array.isArray(out) && isRecord(resolved.items)) {
      const items = resolved.items;
      out = copyIfChanged(
        out,
        out.map((item) => this.fillDeeper(items, item)),
      );
    }
    return out;
  }

  /** {@link fill} one level down. */
  private fillDeeper(schema: Schema, value: unknown): unknown {
    this.depth++;
    try {
      return this.fill(schema, value);
    } finally {
      this.depth--;
    }
  }

  private fillProperties(
    properties: Record<string, unknown>,
    value: Record<string, unknown>,
  ): Record<string, unknown> {
    let out = value;
    for (const [key, property] of Object.entries(properties)) {
      if (!isRecord(property)) continue;
      const target = resolveRef(property, this.root);
      if (!target) continue;
      const current = out[key];
      let next: unknown;
      if (current === undefined) {
        // A default beside a `$ref` is the property's own and wins over the definition's.
        const holder = 'default' in property ? property : target;
        if (!('default' in holder)) continue;
        next = this.fillDeeper(target, structuredClone(holder.default));
      } else {
        next = this.fillDeeper(target, current);
        if (next === current) continue;
      }
      if (out === value) out = { ...value };
      out[key] = next;
    }
    return out;
  }
}

function copyIfChanged(before: unknown[], after: unknown[]): unknown[] {
  return after.some((item, i) => item !== before[i]) ? after : before;
}

/** `schema`, or the local definition its `$ref` names; undefined for a `$ref` that cannot be followed. */
function resolveRef(schema: Schema, root: Schema): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const definitions = root[match[1]!];
  const name = match[2]!.replace(/~1/g, '/').replace(/~0/g, '~');
  const target = isRecord(definitions) ? definitions[name] : undefined;
  return isRecord(target) ? target : undefined;
}
