/**
 * Guards that keep a ReAct loop from spinning: repetition detection, the
 * consecutive-error streak, iteration-budget warnings, and the texts of the
 * notes they add to the next model request.
 * @module
 */

/** Calls remembered for repetition detection. */
export const REPETITION_WINDOW = 5;

/** Consecutive turns with a failed tool call after which the critical recovery note is sent. */
export const ERROR_STREAK_LIMIT = 3;

/** The user message that asks a model to continue a reply cut by the output length limit. */
export const LENGTH_CONTINUE_PROMPT =
  '[System: Your previous response was truncated by the output length limit. Continue exactly where you left off. Do not restart or repeat prior text. Finish the answer directly.]';

/** The note sent after {@link ERROR_STREAK_LIMIT} turns in a row had a failing tool call. */
export const RECOVERY_NOTE = `CRITICAL: You have failed ${ERROR_STREAK_LIMIT} consecutive tool calls. Stop repeating what failed. Read the error messages, check the arguments against each tool's schema, and try a different tool or approach — or give your final answer now, explaining what failed.`;

/**
 * A cheap, stable key of a tool call: the tool name and its arguments,
 * normalised ({@link normaliseArgs}) and serialised with sorted keys. Equal
 * keys mean the model repeated itself even if it reformatted the call.
 */
export function callKey(toolName: string, args: unknown): string {
  return `${toolName}:${stableJson(args)}`;
}

/**
 * JSON of `value` after normalisation: strings are trimmed, path-like strings
 * (`/…`, `./…`) have repeated slashes collapsed and the trailing slash
 * dropped, `http(s)` URLs have their query parameters sorted, and object keys
 * are sorted. Arrays keep their order (their items are normalised).
 */
export function stableJson(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(normaliseString(value));
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') return `${value}n`;
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + stableJson(value[i]);
    return `${out}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return JSON.stringify(value) ?? 'null';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${stableJson(item)}`;
    first = false;
  }
  return `${out}}`;
}

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
 * Remembers the last {@link REPETITION_WINDOW} call keys and reports how many
 * identical calls end the sequence. Counts calls, not turns: two identical
 * calls in one turn already count two.
 */
export class RepetitionGuard {
  private readonly keys: string[] = [];

  /** Records one call. */
  push(key: string): void {
    if (this.keys.length === REPETITION_WINDOW) this.keys.shift();
    this.keys.push(key);
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
}

/** The note for a repetition streak: mild at 2, strong at 3 or more, none below. */
export function repetitionNote(toolName: string, streak: number): string | undefined {
  if (streak >= 3) {
    return `[Repetition detected] You called ${toolName} with identical arguments ${streak} times in a row. You MUST change strategy now. Do NOT retry the same call again: use different arguments or another tool, or give your final answer with what you have.`;
  }
  if (streak === 2) {
    return `[Repetition detected] You called ${toolName} with the same arguments twice in a row and got the same result. Try a DIFFERENT strategy: change the arguments, use another tool, or answer with what you already know.`;
  }
  return undefined;
}

/**
 * The iteration-budget warning after `used` of `max` iterations: from 70 %
 * a reminder, from 90 % a demand for the final answer; none below 70 % or
 * when `max` is not a finite positive number.
 */
export function budgetWarning(used: number, max: number): string | undefined {
  if (!(max > 0) || !Number.isFinite(max)) return undefined;
  const ratio = used / max;
  const remaining = Math.max(0, max - used);
  if (ratio >= 0.9) {
    return `[BUDGET WARNING: ${remaining} iteration(s) left. Provide your final response NOW if you have enough information.]`;
  }
  if (ratio >= 0.7) {
    return `[BUDGET: ${remaining} iterations left. Prioritize remaining work and avoid unnecessary tool calls.]`;
  }
  return undefined;
}
