/**
 * Anti-repetition: a tool call the model repeats with the same arguments
 * (normalised, so a reformatted call still counts) gets a note on the next
 * request — mild at two in a row, strong from three.
 * @module
 */
import { memoized } from '../../core/memo.js';

/** Calls remembered for repetition detection. */
export const REPETITION_WINDOW = 5;

/**
 * A cheap, stable key of a tool call: the tool name and its arguments,
 * normalised ({@link stableJson}) and serialised with sorted keys. Equal
 * keys mean the model repeated itself even if it reformatted the call.
 */
export function callKey(toolName: string, args: unknown): string {
  return `${toolName}:${stableJson(args)}`;
}

/**
 * JSON of `value` after normalisation: strings are trimmed, path-like strings
 * (`/…`, `./…`) have repeated slashes collapsed and the trailing slash
 * dropped, `http(s)` URLs have their query parameters sorted, and object keys
 * are sorted. Arrays are left as they are: their strings, and those of
 * objects inside them, are not normalised (only keys are sorted), so
 * `["/a//b"]` and `["/a/b"]` are different arguments.
 */
export function stableJson(value: unknown): string {
  return json(value, true);
}

function json(value: unknown, normalise: boolean): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(normalise ? normaliseString(value) : value);
    case 'number':
      // What JSON.stringify writes, without its call.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `${value}n`;
    case 'object':
      if (value === null) return 'null';
      // Inside a list an element's position and text can matter (argv, patches).
      if (Array.isArray(value)) return arrayJson(value);
      return objectJson(value, normalise);
    default:
      return 'null';
  }
}

function arrayJson(value: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + json(value[i], false);
  return `${out}]`;
}

function objectJson(value: object, normalise: boolean): string {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return JSON.stringify(value) ?? 'null';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1 && !isSorted(keys)) keys.sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${quotedKey(key)}:${json(item, normalise)}`;
  }
  return `${out}}`;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** Quoted keys: argument names repeat call after call. */
const quotedKey = memoized((key) => JSON.stringify(key), 1000);

const REPEATED_SLASHES = /\/{2,}/g;
const URL_PREFIX = /^https?:\/\//i;

function normaliseString(raw: string): string {
  const text = raw.trim();
  if (text.startsWith('/') || text.startsWith('./')) {
    const collapsed = text.replace(REPEATED_SLASHES, '/');
    return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
  }
  if (URL_PREFIX.test(text)) {
    const q = text.indexOf('?');
    if (q < 0) return text;
    const hash = text.indexOf('#', q);
    const query = hash < 0 ? text.slice(q + 1) : text.slice(q + 1, hash);
    const fragment = hash < 0 ? '' : text.slice(hash);
    return `${text.slice(0, q)}?${query.split('&').sort().join('&')}${fragment}`;
  }
  return text;
}

/**
 * Remembers the last {@link REPETITION_WINDOW} call keys, with what each call
 * returned, and reports how many identical calls end the sequence. Counts
 * calls, not turns: two identical calls in one turn already count two.
 */
export class RepetitionGuard {
  private readonly keys: string[] = [];
  private readonly results: (string | undefined)[] = [];

  /** Records one call and, when known, the result the model saw. */
  push(key: string, result?: string): void {
    if (this.keys.length === REPETITION_WINDOW) {
      this.keys.shift();
      this.results.shift();
    }
    this.keys.push(key);
    this.results.push(result);
  }

  /** Length of the run of identical keys at the end (0 when empty). */
  streak(): number {
    const keys = this.keys;
    const last = keys[keys.length - 1];
    if (last === undefined) return 0;
    let n = 1;
    while (n < keys.length && keys[keys.length - 1 - n] === last) n++;
    return n;
  }

  /** Whether the last `count` calls all got the same, known result. */
  sameResults(count: number): boolean {
    const results = this.results;
    const last = results[results.length - 1];
    if (last === undefined || count > results.length) return false;
    for (let i = results.length - count; i < results.length - 1; i++) if (results[i] !== last) return false;
    return true;
  }
}

/** A call the model repeated, as a repetition note describes it. */
export interface RepeatedCall {
  toolName: string;
  /** The arguments as shown to the model (normalised JSON, capped). */
  args: string;
  /** Every repetition returned the same result; the note only then says so. */
  sameResult: boolean;
}

/** Longest rendering of repeated arguments in a note. */
const REPEATED_ARGS_CHARS = 200;

/**
 * The note for a repetition streak: mild at 2, strong at 3 or more, none
 * below. It names the call; it claims the same result only when the results
 * were the same.
 */
export function repetitionNote(call: RepeatedCall, streak: number): string | undefined {
  if (streak < 2) return undefined;
  const args = capArgs(call.args);
  const what = `${call.toolName} with the same arguments (${args})`;
  if (streak >= 3) {
    const outcome = call.sameResult ? ', getting the same result each time' : '';
    return `[Repetition detected] You called ${what} ${streak} times in a row${outcome}. You MUST change strategy now. Do NOT retry the same call again: use different arguments or another tool, or give your final answer with what you have.`;
  }
  const outcome = call.sameResult ? ' and got the same result' : '';
  return `[Repetition detected] You called ${what} twice in a row${outcome}. Try a DIFFERENT strategy: change the arguments, use another tool, or answer with what you already know.`;
}

function capArgs(args: string): string {
  if (args.length <= REPEATED_ARGS_CHARS) return args;
  let end = REPEATED_ARGS_CHARS;
  // Half a surrogate pair is invalid UTF-16 to a provider.
  const code = args.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${args.slice(0, end)}…`;
}
