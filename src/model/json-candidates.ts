/**
 * The search behind `extractJSON`, `parseJSONLoose` and `parseWithSchema`:
 * every bracketed value of a reply is a candidate, candidates are tried in one
 * fixed order (repaired when they are near-JSON), and the first that fits —
 * the expected shape, then the caller's check — wins. When none fits, the
 * failure of the candidate that came closest says what was wrong. The search
 * is one generator that yields each candidate and takes the check's verdict
 * back, so a synchronous and an asynchronous check share it.
 * @module
 */
import { jsonrepair } from 'jsonrepair';
import { errorMessage } from '../core/errors.js';
import type { SchemaIssue } from './schema.js';

/** Which top-level JSON value a caller wants. Without it objects are preferred over arrays. */
export type JsonShape = 'object' | 'array';

/** What a caller's check says about one parsed candidate. */
export type Verdict<T> =
  | { ok: true; value: T }
  | { ok: false; message: string; issues?: readonly SchemaIssue[] };

/** Why no candidate fitted, as `StructuredOutputError` fields. */
export interface JsonMiss {
  kind: 'no_json' | 'invalid_json' | 'schema_mismatch';
  message: string;
  issues?: readonly SchemaIssue[];
  cause?: unknown;
}

/** The outcome of {@link findJSON}: the value and its JSON text (repaired when it needed repair), or why none fitted. */
export type JsonSearch<T> = { ok: true; value: T; json: string } | { ok: false; miss: JsonMiss };

const FENCE = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g;
const JSON_FENCE_LANGS = new Set(['', 'json', 'json5', 'jsonc']);
const PREVIEW_CHARS = 200;

// How close a failed candidate came; the closest one is reported.
const WRONG_SHAPE = 0;
const UNPARSABLE = 1;
const CHECK_FAILED = 2;

interface Ranked extends JsonMiss {
  rank: number;
}

/**
 * The first candidate of `text` that fits. Sources in order: the body of each
 * ```` ```json ```` / ```` ``` ```` fence, the text outside all fences, then
 * fences in other languages. Within a source, candidates in order of their
 * opening bracket — so an enclosing value is tried before the values inside
 * it. Each is parsed as is, else repaired with `jsonrepair`. Without `expect`,
 * a fitting array only wins when no object after it fits (prose like "see
 * [1]" is valid JSON), and the values inside it are not tried on their own.
 */
export function findJSON<T>(
  text: string,
  expect: JsonShape | undefined,
  check: (value: unknown) => Verdict<T>,
): JsonSearch<T> {
  const search = searchJSON<T>(text, expect);
  let step = search.next();
  while (!step.done) step = search.next(check(step.value));
  return step.value;
}

/** {@link findJSON} with a check that may be asynchronous (a schema with async refinements). */
export async function findJSONAsync<T>(
  text: string,
  expect: JsonShape | undefined,
  check: (value: unknown) => Verdict<T> | Promise<Verdict<T>>,
): Promise<JsonSearch<T>> {
  const search = searchJSON<T>(text, expect);
  let step = search.next();
  while (!step.done) step = search.next(await check(step.value));
  return step.value;
}

/** The search: yields each candidate value to check, receives its verdict, returns the outcome. */
type Search<T> = Generator<unknown, JsonSearch<T>, Verdict<T>>;

function* searchJSON<T>(text: string, expect: JsonShape | undefined): Search<T> {
  let closest: Ranked = { rank: -1, kind: 'no_json', message: 'The reply contains no JSON.' };
  const note = (miss: Ranked) => {
    if (miss.rank > closest.rank) closest = miss;
  };
  const whole = wholeValue(text);
  if (whole) {
    // The only candidate the full search would find: it is not searched for again.
    const { found, array } = yield* searchValue<T>(whole, expect, note);
    if (found ?? array) return (found ?? array)!;
  } else {
    for (const source of sources(text)) {
      const found = yield* searchSource<T>(source, expect, note);
      if (found) return found;
    }
  }
  const { kind, message, issues, cause } = closest;
  return { ok: false, miss: { kind, message, issues, cause } };
}

/**
 * The reply as one JSON object or array, when it is nothing else (the usual
 * reply in a JSON mode): the candidate the search would reach first, without
 * scanning for brackets. Not with a fence anywhere, whose content goes first.
 */
function wholeValue(text: string): (Parsed & { ok: true }) | undefined {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']')) || trimmed.includes('```'))
    return;
  const parsed = parseAsIs(trimmed);
  return parsed.ok ? parsed : undefined;
}

/** `text` trimmed and cut to `max` characters, marked with `...` when cut. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}...` : trimmed;
}

function sources(text: string): string[] {
  const fenced: string[] = [];
  const otherLanguages: string[] = [];
  let outside = '';
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    const json = JSON_FENCE_LANGS.has(match[1]!.trim().toLowerCase());
    (json ? fenced : otherLanguages).push(match[2]!);
    outside += `${text.slice(last, match.index)}\n`;
    last = match.index + match[0].length;
  }
  return [...fenced, outside + text.slice(last), ...otherLanguages];
}

type Found<T> = { ok: true; value: T; json: string };

function* searchSource<T>(
  source: string,
  expect: JsonShape | undefined,
  note: (miss: Ranked) => void,
): Generator<unknown, Found<T> | undefined, Verdict<T>> {
  const endOf = endFinder(source);
  let array: Found<T> | undefined;
  // End of the last top-level candidate: a bracket before it sits inside that candidate.
  let covered = 0;
  for (let open = nextOpener(source, 0); open >= 0; ) {
    const end = endOf(open);
    const stop = end < 0 ? source.length : end;
    const topLevel = open >= covered;
    if (topLevel) covered = stop;
    let next = open + 1;
    // Inside a top-level candidate that is not JSON, only complete values can be JSON on their own.
    const parsed = topLevel
      ? parseOrRepair(source.slice(open, stop))
      : end < 0
        ? undefined
        : parseAsIs(source.slice(open, stop));
    if (parsed?.ok) {
      const outcome = yield* searchValue<T>(parsed, expect, note);
      if (outcome.found) return outcome.found;
      array ??= outcome.array;
      next = stop;
    } else if (parsed) {
      note(unparsable(source.slice(open, stop), parsed.error, expect));
    }
    open = nextOpener(source, next);
  }
  return array;
}

type Parsed = { ok: true; value: object; json: string } | { ok: false; error: unknown };

function parseAsIs(raw: string): Parsed {
  try {
    return asContainer(JSON.parse(raw), raw);
  } catch (error) {
    return { ok: false, error };
  }
}

function parseOrRepair(raw: string): Parsed {
  const asIs = parseAsIs(raw);
  if (asIs.ok) return asIs;
  try {
    const json = jsonrepair(raw);
    return asContainer(JSON.parse(json), json);
  } catch (error) {
    return { ok: false, error };
  }
}

function asContainer(value: unknown, json: string): Parsed {
  if (typeof value === 'object' && value !== null) return { ok: true, value, json };
  return { ok: false, error: new Error('not an object or array') };
}

/**
 * A parsed candidate, then the objects and arrays inside it in document
 * order (walked in the value: the text need not be parsed again). Without
 * `expect`, a fitting array is kept whole and the search goes on for an object.
 */
function* searchValue<T>(
  parsed: { value: object; json: string },
  expect: JsonShape | undefined,
  note: (miss: Ranked) => void,
): Generator<unknown, { found?: Found<T>; array?: Found<T> }, Verdict<T>> {
  let array: Found<T> | undefined;
  const stack: object[] = [parsed.value];
  while (stack.length > 0) {
    const value = stack.pop()!;
    const root = value === parsed.value;
    const shape = shapeOf(value);
    const verdict = expect && shape !== expect ? undefined : yield value;
    if (verdict?.ok) {
      const found: Found<T> = {
        ok: true,
        value: verdict.value,
        json: root ? parsed.json : JSON.stringify(value),
      };
      if (expect || shape === 'object') return { found, array };
      array ??= found;
      continue;
    }
    if (root)
      note(
        verdict
          ? { rank: CHECK_FAILED, kind: 'schema_mismatch', ...verdict }
          : wrongShape(shape, expect!, parsed.json),
      );
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const child: unknown = children[i];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return { array };
}

function unparsable(raw: string, error: unknown, expect: JsonShape | undefined): Ranked {
  const opened: JsonShape = raw[0] === '[' ? 'array' : 'object';
  return {
    rank: expect && opened !== expect ? WRONG_SHAPE : UNPARSABLE,
    kind: 'invalid_json',
    message: `The reply is not valid JSON (${errorMessage(error)}): ${preview(raw)}`,
    cause: error,
  };
}

function wrongShape(shape: JsonShape, expect: JsonShape, json: string): Ranked {
  return {
    rank: WRONG_SHAPE,
    kind: 'schema_mismatch',
    message: `The reply holds a JSON ${shape} where a JSON ${expect} is required: ${preview(json)}`,
  };
}

function shapeOf(value: object): JsonShape {
  return Array.isArray(value) ? 'array' : 'object';
}

function nextOpener(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{' || text[i] === '[') return i;
  }
  return -1;
}

/**
 * Index just past the bracket closing the one at a given index, or -1 when it
 * never closes (or closes wrongly). One scan settles every bracket it passes
 * outside strings — a scan from such a bracket would see exactly the same
 * characters — so a reply full of unclosed brackets costs linear time, not
 * quadratic.
 */
function endFinder(text: string): (start: number) => number {
  const ends = new Map<number, number>();
  return (start) => {
    if (!ends.has(start)) scanBrackets(text, start, ends);
    return ends.get(start)!;
  };
}

function scanBrackets(text: string, start: number, ends: Map<number, number>): void {
  const open: Array<{ at: number; closer: string }> = [];
  let quote = '';
  // Last non-space character outside strings: a single quote opens a string only where a value may start.
  let previous = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && '{[:,'.includes(previous))) quote = c;
    else if (c === '{' || c === '[') open.push({ at: i, closer: c === '{' ? '}' : ']' });
    else if (c === '}' || c === ']') {
      const top = open.pop()!;
      if (top.closer !== c) {
        open.push(top);
        break;
      }
      ends.set(top.at, i + 1);
      if (open.length === 0) return;
    }
    if (c.trim()) previous = c;
  }
  for (const bracket of open) ends.set(bracket.at, -1);
}
