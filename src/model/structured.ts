/**
 * Structured output: how a value of a schema is asked of a model. The model
 * says how it can be held to a JSON Schema (`ModelInfo.structuredOutput`);
 * this module turns a user's schema into the JSON Schema providers take
 * (converted once per schema, on first need) and into the response format or prompt text
 * for that mode.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { assertSchema, type Schema } from './schema.js';
import { jsonSchemaNow, jsonSchemaOf } from './schema-json.js';
import type { JsonSchema, ModelInfo, ResponseFormat, StructuredOutputMode } from './types.js';

/** The mode of a model: its `structuredOutput`, else `json` when it `supportsJson`, else `none`. */
export function structuredOutputMode(info: ModelInfo | undefined): StructuredOutputMode {
  return info?.structuredOutput ?? (info?.supportsJson ? 'json' : 'none');
}

/** True for the modes where the provider itself holds the reply to the schema. */
export function isNativeMode(mode: StructuredOutputMode): boolean {
  return mode === 'json_schema' || mode === 'tool';
}

/** A schema ready to be asked for: the schema, its JSON Schema, and the name providers see. */
export interface OutputFormat<T = unknown> {
  readonly schema: Schema<T>;
  readonly jsonSchema: JsonSchema;
  readonly name: string;
  readonly description?: string;
}

/** Options of {@link outputFormat}. */
export interface OutputFormatOptions {
  /** Name of the schema (OpenAI `json_schema.name`, Anthropic's answer tool): letters, digits, `_`, `-`. Default `response`. */
  name?: string;
  /** What the value is; sent where the provider takes a description. */
  description?: string;
  /** The JSON Schema to send, over the one the schema library makes (needed for a library without a converter). */
  jsonSchema?: JsonSchema;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A schema as an {@link OutputFormat}. The JSON Schema is converted once per
 * schema object, by the library's own converter (as for tool parameters); a
 * zod schema older than zod 4.2 imports tandem's zod first.
 * @throws ConfigError (as a rejection) when `schema` is not a Standard Schema, has no JSON Schema, or
 *   `name` is not a valid name.
 */
export async function outputFormat<T>(
  schema: Schema<T>,
  options: OutputFormatOptions = {},
): Promise<OutputFormat<T>> {
  const name = checkedName(schema, options);
  const jsonSchema = await jsonSchemaOf(schema, 'Output schema', { given: options.jsonSchema });
  const format: { -readonly [K in keyof OutputFormat<T>]: OutputFormat<T>[K] } = { schema, jsonSchema, name };
  if (options.description) format.description = options.description;
  return format;
}

/**
 * Throws at once what {@link outputFormat} would reject with, as far as can
 * be told without importing tandem's zod: for options checked when an agent
 * is made rather than at its first run.
 * @throws ConfigError when `schema` is not a Standard Schema, has no JSON Schema, or `name` is not a valid name.
 */
export function assertOutputSchema(schema: Schema, options: OutputFormatOptions = {}): void {
  checkedName(schema, options);
  jsonSchemaNow(schema, 'Output schema', { given: options.jsonSchema });
}

function checkedName(schema: Schema, options: OutputFormatOptions): string {
  assertSchema(schema, 'Output schema');
  const name = options.name ?? 'response';
  if (!NAME.test(name)) {
    throw new ConfigError(`Output schema name must match ${NAME.source}, got ${JSON.stringify(name)}`);
  }
  return name;
}

/**
 * The `responseFormat` that asks for `format` in `mode`: the schema itself in
 * a native mode, plain JSON in `json` mode, none in `none` mode.
 */
export function responseFormatFor(
  format: OutputFormat,
  mode: StructuredOutputMode,
): ResponseFormat | undefined {
  if (mode === 'json') return { type: 'json' };
  if (!isNativeMode(mode)) return undefined;
  const out: ResponseFormat = { type: 'json', schema: format.jsonSchema, name: format.name };
  if (format.description) out.description = format.description;
  return out;
}

/** The prompt text asking for a reply of `format`, for modes that cannot send the schema. */
export function schemaInstruction(format: OutputFormat): string {
  const what = format.description ? ` (${format.description})` : '';
  return `Reply with only a JSON value${what} matching this JSON Schema, with no other text:\n${JSON.stringify(format.jsonSchema)}`;
}
