/**
 * Tool-call arguments as models actually send them: usually JSON, sometimes
 * wrapped in a code fence, with trailing commas, single quotes, or
 * double-encoded as a JSON string.
 * @module
 */
import { jsonrepair } from 'jsonrepair';
import { errorMessage } from '../core/errors.js';
import { isRecord } from './records.js';

/** Outcome of {@link parseArguments}. */
export type ParsedArguments =
  | { ok: true; value: Record<string, unknown>; repaired: boolean }
  | { ok: false; error: string };

const FENCE = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```$/;

/**
 * Parses a tool call's argument text into an object. Empty or blank text is
 * `{}` (models send it for tools without parameters). Valid JSON takes the
 * fast path; otherwise common damage is repaired with `jsonrepair`. Text that
 * stops before its closing brace is refused rather than completed: output cut
 * off by a length limit would otherwise run with silently truncated values.
 * Arrays and primitives are refused: arguments are always an object.
 */
export function parseArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, value: {}, repaired: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return repair(text, errorMessage(error));
  }
  return toObject(parsed, false);
}

function repair(text: string, parseError: string): ParsedArguments {
  const trimmed = text.trim();
  const body = FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  if (!body.endsWith('}')) {
    return { ok: false, error: `${parseError} (the arguments end before their closing brace)` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonrepair(body));
  } catch {
    return { ok: false, error: parseError };
  }
  return toObject(parsed, true);
}

function toObject(value: unknown, repaired: boolean): ParsedArguments {
  if (typeof value === 'string') {
    // Double-encoded: `"{\"a\":1}"`. Only an object inside counts.
    const inner = value.trim();
    if (inner.startsWith('{')) {
      try {
        const decoded: unknown = JSON.parse(inner);
        if (isRecord(decoded)) return { ok: true, value: decoded, repaired: true };
      } catch {
        // Not JSON inside: reported below as a string.
      }
    }
  }
  if (isRecord(value)) return { ok: true, value, repaired };
  return { ok: false, error: `Arguments must be a JSON object, got ${describe(value)}` };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
