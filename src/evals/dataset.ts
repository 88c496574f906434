/**
 * Datasets: inline arrays or JSONL files of `{ input, expected?, metadata? }`,
 * each case checked against a schema, versioned by a content hash so results
 * say exactly which cases they measured.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { TandemError } from '../core/errors.js';
import { issueLines, type Schema, validateSchema } from '../model/schema.js';
import type { EvalCase } from './types.js';

/** Thrown when a dataset cannot be read or a case does not match its schema. */
export class DatasetError extends TandemError<'dataset'> {
  static override readonly brand: string = 'DatasetError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('dataset', message, options);
  }
}

/** A checked set of cases and its content hash. */
export interface Dataset<I = unknown, E = unknown> {
  name: string;
  cases: EvalCase<I, E>[];
  /** sha256 (hex) of the canonical JSONL of the cases: one line per case, keys sorted. */
  hash: string;
}

/** Options of {@link dataset} and {@link loadDataset}. */
export interface DatasetOptions<I, E> {
  /** Shown in reports. Default `dataset` (inline) or the file's path. */
  name?: string;
  /** Schema each case's `input` must match (zod 4 or any Standard Schema); its output becomes the input. */
  input?: Schema<I>;
  /** Schema each case's `expected` must match, when present. */
  expected?: Schema<E>;
}

/** JSON with object keys sorted at every level, so equal data gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}

/** sha256 of the canonical JSONL of `cases`. */
export function datasetHash(cases: readonly EvalCase[]): string {
  const jsonl = cases.map((c) => `${canonicalJson(c)}\n`).join('');
  return createHash('sha256').update(jsonl).digest('hex');
}

async function checked<T>(schema: Schema<T> | undefined, value: unknown, where: string): Promise<T> {
  if (!schema) return value as T;
  const result = await validateSchema(schema, value);
  if (result.success) return result.data;
  throw new DatasetError(`${where} does not match its schema: ${issueLines(result.issues).join('; ')}`);
}

async function checkCase<I, E>(
  raw: unknown,
  index: number,
  options: DatasetOptions<I, E>,
): Promise<EvalCase<I, E>> {
  const where = `Case ${index + 1}`;
  if (raw === null || typeof raw !== 'object' || !('input' in raw))
    throw new DatasetError(`${where} must be an object with an "input" field`);
  const c = raw as EvalCase;
  const out: EvalCase<I, E> = {
    id: c.id ?? String(index),
    input: await checked(options.input, c.input, `${where} input`),
  };
  if (c.expected !== undefined)
    out.expected = await checked(options.expected, c.expected, `${where} expected`);
  if (c.metadata !== undefined) out.metadata = c.metadata;
  return out;
}

/**
 * A dataset from inline cases, each checked against the schemas; without
 * schemas the cases' own types type the dataset.
 * @throws DatasetError (as a rejection) when a case is not `{ input, … }` or does not match a schema.
 */
export async function dataset<I, E = unknown>(
  cases: readonly unknown[],
  options: DatasetOptions<I, E> & { input: Schema<I> },
): Promise<Dataset<I, E>>;
export async function dataset<I, E = unknown>(
  cases: readonly EvalCase<I, E>[],
  options?: DatasetOptions<I, E>,
): Promise<Dataset<I, E>>;
export async function dataset<I, E>(
  cases: readonly unknown[],
  options: DatasetOptions<I, E> = {},
): Promise<Dataset<I, E>> {
  const checkedCases = await Promise.all(cases.map((raw, i) => checkCase(raw, i, options)));
  const ids = new Set<string>();
  for (const c of checkedCases) {
    if (ids.has(c.id!)) throw new DatasetError(`Case id "${c.id}" appears twice; ids pair cases across runs`);
    ids.add(c.id!);
  }
  return { name: options.name ?? 'dataset', cases: checkedCases, hash: datasetHash(checkedCases) };
}

/** Parses JSONL text into raw cases, naming the line of a syntax error. */
export function parseJsonl(text: string, source = 'JSONL'): unknown[] {
  const rows: unknown[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(JSON.parse(line));
    } catch (error) {
      throw new DatasetError(`${source} line ${i + 1} is not JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  });
  return rows;
}

/**
 * A dataset from a JSONL file, one case per line.
 * @throws DatasetError (as a rejection) when the file cannot be read, a line is not JSON, or a case does not match.
 */
export async function loadDataset<I = unknown, E = unknown>(
  path: string,
  options: DatasetOptions<I, E> = {},
): Promise<Dataset<I, E>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DatasetError(`Cannot read dataset ${path}: ${(error as Error).message}`, { cause: error });
  }
  return dataset(parseJsonl(text, path) as EvalCase<I, E>[], { name: path, ...options });
}
