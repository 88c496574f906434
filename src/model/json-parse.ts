/**
 * JSON out of model replies. Models wrap JSON in code fences, surround it with
 * prose, emit several blocks, or write it slightly broken (trailing commas,
 * single quotes, cut off at the token limit). {@link extractJSON} and
 * {@link parseJSONLoose} find the value by one rule (candidates in order,
 * repaired when needed); {@link parseWithSchema} and {@link extractObject}
 * take the first candidate a schema accepts (zod, any Standard Schema, or
 * `jsonSchema()`).
 * @module
 */
import { ConfigError, TandemError } from '../core/errors.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { findJSON, findJSONAsync, type JsonSearch, type JsonShape, type Verdict } from './json-candidates.js';
import { checkSchema, type Schema, type SchemaIssue, type SchemaValidation } from './schema.js';

/** Why a reply could not be turned into the value asked for. */
export type StructuredOutputErrorKind =
  | 'empty_reply'
  | 'no_json'
  | 'invalid_json'
  | 'schema_mismatch'
  | 'model_failed';

/** A reply that held no usable value, or a model that kept failing. */
export class StructuredOutputError extends TandemError<StructuredOutputErrorKind> {
  static override readonly brand: string = 'StructuredOutputError';

  /** The last raw reply text, when there was one. */
  readonly text?: string;
  /** Model calls made (0 when thrown by a parse function). */
  readonly attempts: number;
  /** Tokens spent on every attempt. */
  readonly usage: Usage;
  /** The schema's issues of a `schema_mismatch`. */
  readonly issues?: readonly SchemaIssue[];
  constructor(
    kind: StructuredOutputErrorKind,
    message: string,
    options: {
      text?: string;
      attempts?: number;
      usage?: Usage;
      issues?: readonly SchemaIssue[];
      cause?: unknown;
    } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.text = options.text;
    this.attempts = options.attempts ?? 0;
    this.usage = options.usage ?? emptyUsage();
    this.issues = options.issues;
  }
}

export type { JsonShape } from './json-candidates.js';

/** Options of {@link extractJSON} and {@link parseJSONLoose}. */
export interface ExtractOptions {
  expect?: JsonShape;
}

/**
 * The JSON text of the value in a model reply, ready for `JSON.parse`, or
 * `undefined` when the reply holds none.
 *
 * One rule for every reply: the bracketed values are candidates, tried in
 * order — the bodies of ```` ```json ```` / ```` ``` ```` fences, then the text
 * outside fences, then fences in other languages; within each, an enclosing
 * value before the values inside it. A candidate is parsed as is, else
 * repaired with `jsonrepair` (trailing commas, single quotes, comments, a
 * tail cut off at the token limit: the repaired text is returned). The first
 * candidate of the `expect`ed shape wins. Brackets inside strings do not
 * count, and nesting depth is unlimited. Without `expect` an object beats an
 * earlier array (prose like "see [1]" is valid JSON), and a top-level array
 * is returned whole.
 */
export function extractJSON(text: string, options: ExtractOptions = {}): string | undefined {
  const found = findJSON(text, options.expect, accept);
  return found.ok ? found.json : undefined;
}

/**
 * The JSON value in a model reply, found by the rule of {@link extractJSON}.
 * @throws {StructuredOutputError} `empty_reply`; `no_json` when the reply holds no bracketed value; `invalid_json` when none parses, even repaired; `schema_mismatch` when `expect` names a shape the reply's JSON does not have.
 */
export function parseJSONLoose(text: string, options: ExtractOptions = {}): unknown {
  return search(text, options.expect, accept);
}

function accept(value: unknown): Verdict<unknown> {
  return { ok: true, value };
}

/** {@link findJSON} on a non-empty reply, its miss thrown as a {@link StructuredOutputError}. */
function search<T>(text: string, expect: JsonShape | undefined, check: (value: unknown) => Verdict<T>): T {
  if (!text.trim()) throw emptyReply(text);
  return foundValue(text, findJSON(text, expect, check)).value;
}

function emptyReply(text: string): StructuredOutputError {
  return new StructuredOutputError('empty_reply', 'The reply was empty.', { text });
}

/** The value found, or the miss thrown as a {@link StructuredOutputError}. */
function foundValue<T>(text: string, search: JsonSearch<T>): Extract<JsonSearch<T>, { ok: true }> {
  if (search.ok) return search;
  const { kind, message, issues, cause } = search.miss;
  throw new StructuredOutputError(kind, message, { text, issues, cause });
}

/**
 * The first value in a reply that `schema` accepts: the candidates of
 * {@link extractJSON}, in its order, each validated until one passes — so an
 * example block before the real one, or a step object inside a plan that
 * needed repair, does not win. When none passes, the error describes the
 * candidate that came closest (one that failed the schema over one of the
 * wrong shape over one that does not parse; the first among equals).
 * @throws {StructuredOutputError} `empty_reply`, `no_json`, `invalid_json` or `schema_mismatch` (message lists the issues).
 * @throws {ConfigError} for a schema that validates asynchronously: use {@link parseWithSchemaAsync}.
 */
export function parseWithSchema<T>(text: string, schema: Schema<T>, expect?: JsonShape): T {
  return search(text, expect, (value) => {
    const outcome = checkSchema(schema, value);
    if (outcome instanceof Promise) {
      throw new ConfigError('parseWithSchema: the schema validates asynchronously; use parseWithSchemaAsync');
    }
    return verdictOf(outcome);
  });
}

/**
 * {@link parseWithSchema} for any schema, asynchronous ones included.
 * @throws {StructuredOutputError} as {@link parseWithSchema} does.
 */
export async function parseWithSchemaAsync<T>(
  text: string,
  schema: Schema<T>,
  expect?: JsonShape,
): Promise<T> {
  return (await extractObject(text, schema, expect)).object;
}

/**
 * {@link parseWithSchemaAsync}, also returning the JSON text of the value
 * found (repaired when it needed repair): what an agent keeps as its output.
 * @throws {StructuredOutputError} as {@link parseWithSchema} does.
 */
export async function extractObject<T>(
  text: string,
  schema: Schema<T>,
  expect?: JsonShape,
): Promise<{ object: T; json: string }> {
  if (!text.trim()) throw emptyReply(text);
  const { value, json } = foundValue(
    text,
    await findJSONAsync(text, expect, async (candidate) => verdictOf(await checkSchema(schema, candidate))),
  );
  return { object: value, json };
}

function verdictOf<T>(outcome: SchemaValidation<T>): Verdict<T> {
  if (outcome.success) return { ok: true, value: outcome.data };
  const message = `The JSON does not have the required shape:\n${formatIssues(outcome.issues)}`;
  return { ok: false, message, issues: outcome.issues };
}

/** Issues one per line, each with the path it is at: what a model reads to correct its reply. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => {
      const at = issue.path.length > 0 ? `\n  → at ${pathText(issue.path)}` : '';
      return `✖ ${issue.message}${at}`;
    })
    .join('\n');
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}
