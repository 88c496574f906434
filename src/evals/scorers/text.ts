/**
 * Scorers on the output itself: exact, includes, regex, valid against a
 * schema, and custom scorers from plain functions.
 * @module
 */
import { issueLines, type Schema, validateSchema } from '../../model/schema.js';
import type { Score, Scorer, ScorerInput } from '../types.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

function normalised(value: unknown, options: TextOptions): string {
  let s = text(value);
  if (options.trim !== false) s = s.trim();
  if (options.ignoreCase) s = s.toLowerCase();
  return s;
}

/** Options of the text scorers. */
export interface TextOptions {
  /** Compare without case. Default false. */
  ignoreCase?: boolean;
  /** Trim whitespace first. Default true. */
  trim?: boolean;
}

/** 1 when the output equals the case's `expected` (objects compared as JSON), else 0. */
export function exactMatch(options: TextOptions & { name?: string } = {}): Scorer {
  return {
    name: options.name ?? 'exact',
    score: ({ output, case: c }) => {
      const ok = normalised(output, options) === normalised(c.expected, options);
      return { score: ok ? 1 : 0, reason: ok ? 'output equals expected' : `expected ${text(c.expected)}` };
    },
  };
}

/**
 * The share of the wanted strings the output contains: `needles` if given,
 * else the case's `expected` (a string or an array of strings).
 */
export function includes(options: TextOptions & { name?: string; needles?: string[] } = {}): Scorer {
  return {
    name: options.name ?? 'includes',
    score: ({ output, case: c }) => {
      const wanted = options.needles ?? (Array.isArray(c.expected) ? c.expected : [c.expected]).map(text);
      const hay = normalised(output, options);
      const missing = wanted.filter((n) => !hay.includes(normalised(n, options)));
      const score = wanted.length === 0 ? 1 : (wanted.length - missing.length) / wanted.length;
      return {
        score,
        reason: missing.length ? `missing ${missing.map((m) => JSON.stringify(m)).join(', ')}` : 'all found',
      };
    },
  };
}

/** 1 when the output matches `pattern`, else 0. */
export function regex(pattern: RegExp, options: { name?: string } = {}): Scorer {
  return {
    name: options.name ?? 'regex',
    score: ({ output }) => {
      const ok = new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text(output));
      return { score: ok ? 1 : 0, reason: ok ? `matches ${pattern}` : `does not match ${pattern}` };
    },
  };
}

/** 1 when the output (parsed from JSON when it is a string) is valid against `schema`, else 0 with the issues. */
export function matchesSchema(schema: Schema, options: { name?: string } = {}): Scorer {
  return {
    name: options.name ?? 'schema',
    score: async ({ output }) => {
      let value = output;
      if (typeof output === 'string') {
        try {
          value = JSON.parse(output);
        } catch {
          return { score: 0, reason: 'output is not JSON' };
        }
      }
      const result = await validateSchema(schema, value);
      return result.success
        ? { score: 1, reason: 'valid against the schema' }
        : { score: 0, reason: issueLines(result.issues).join('; ') };
    },
  };
}

/**
 * A custom scorer from a plain function returning a number (0–1), a boolean
 * (pass / fail) or a full {@link Score}.
 */
export function scorer<I = any, O = any, E = any>(
  name: string,
  fn: (input: ScorerInput<I, O, E>) => number | boolean | Score | Promise<number | boolean | Score>,
  options: { threshold?: number } = {},
): Scorer<I, O, E> {
  const out: Scorer<I, O, E> = {
    name,
    score: async (input) => {
      const value = await fn(input);
      if (typeof value === 'boolean') return { score: value ? 1 : 0, reason: value ? 'passed' : 'failed' };
      if (typeof value === 'number') return { score: value, reason: `${name} = ${value}` };
      return value;
    },
  };
  if (options.threshold !== undefined) out.threshold = options.threshold;
  return out;
}
