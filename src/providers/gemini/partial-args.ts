/**
 * Vertex AI streams function-call arguments as `partialArgs`: values
 * addressed by JSON path (`$.location`), strings arriving in pieces while
 * `willContinue` is set. This rebuilds the arguments object from them.
 * @module
 */
import type { GeminiPartialArg } from './wire.js';

type Key = string | number;

const SEGMENT = /\.([^.[\]]+)|\[(\d+)\]|\[['"]([^'"]*)['"]\]/y;

/** The keys of a JSON path such as `$.a.b[0]['c d']`, or `undefined` when it is not one. */
export function jsonPathKeys(path: string): Key[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const keys: Key[] = [];
  SEGMENT.lastIndex = 1;
  while (SEGMENT.lastIndex < path.length) {
    const match = SEGMENT.exec(path);
    if (!match) return undefined;
    keys.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (match[3] ?? '')));
  }
  return keys;
}

function argValue(arg: GeminiPartialArg): { value: unknown; append: boolean } | undefined {
  if (typeof arg.stringValue === 'string') return { value: arg.stringValue, append: true };
  if (typeof arg.numberValue === 'number') return { value: arg.numberValue, append: false };
  if (typeof arg.boolValue === 'boolean') return { value: arg.boolValue, append: false };
  if ('nullValue' in arg) return { value: null, append: false };
  return undefined;
}

/** Arguments of one streamed function call, built up from its `partialArgs`. */
export class PartialArgs {
  /** The arguments so far. */
  readonly value: Record<string, unknown> = {};

  /** Applies one chunk's `partialArgs`; entries with unusable paths are skipped. */
  apply(args: GeminiPartialArg[]): void {
    for (const arg of args) {
      const keys = arg.jsonPath ? jsonPathKeys(arg.jsonPath) : undefined;
      const found = argValue(arg);
      if (!keys || keys.length === 0 || !found) continue;
      let node: Record<Key, unknown> = this.value;
      for (let i = 0; i < keys.length - 1; i++) {
        const key = keys[i] as Key;
        let next = node[key];
        if (next === null || typeof next !== 'object') {
          next = typeof keys[i + 1] === 'number' ? [] : {};
          node[key] = next;
        }
        node = next as Record<Key, unknown>;
      }
      const last = keys[keys.length - 1] as Key;
      const current = node[last];
      node[last] =
        found.append && typeof current === 'string' ? current + (found.value as string) : found.value;
    }
  }
}
