/**
 * Provider-safe names for MCP tools. Servers name tools freely (dots,
 * slashes, any length); every provider wants `[a-zA-Z0-9_-]{1,64}`.
 * @module
 */
import { ConfigError } from '../core/errors.js';

const MAX_LENGTH = 64;
const UNSAFE = /[^a-zA-Z0-9_-]/g;

/**
 * The tandem name of an MCP tool: `prefix + name` with every character
 * outside `a-zA-Z0-9_-` replaced by `_`. A name longer than 64 characters
 * keeps its first 55 and ends in `_` plus a hash of the full unsanitised
 * name, so two long names sharing a start stay apart. Deterministic.
 * @throws ConfigError for an empty name.
 */
export function mcpToolName(name: string, prefix = ''): string {
  const raw = prefix + name;
  if (raw === '') throw new ConfigError('MCP tool name must not be empty');
  const safe = raw.replace(UNSAFE, '_');
  if (safe.length <= MAX_LENGTH) return safe;
  return `${safe.slice(0, MAX_LENGTH - 9)}_${fnv1a(raw)}`;
}

/**
 * Throws when two server tools map to the same tandem name, naming both:
 * calls would otherwise reach the wrong tool.
 * @throws ConfigError on a collision.
 */
export function assertDistinctNames(pairs: ReadonlyArray<{ name: string; mcpName: string }>): void {
  const seen = new Map<string, string>();
  for (const { name, mcpName } of pairs) {
    const first = seen.get(name);
    if (first !== undefined) {
      throw new ConfigError(
        `MCP tools "${first}" and "${mcpName}" both map to the tool name "${name}"; exclude one of them`,
      );
    }
    seen.set(name, mcpName);
  }
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
