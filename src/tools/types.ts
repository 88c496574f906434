/**
 * Tools: what a model can call. Parameters are any Standard Schema (zod 4,
 * valibot, arktype…) or `jsonSchema()`; providers get the JSON Schema the
 * schema library makes (see `model/schema-json.ts`).
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError } from '../core/errors.js';
import type { Emitter, EventPayloads } from '../core/events.js';
import type { Sandbox } from '../core/sandbox.js';
import { parametersJsonSchema } from '../model/schema-json.js';
import type { JsonSchema, ToolSpec } from '../model/types.js';
import { assertObjectParameters, assertZodObjectParameters } from './object-parameters.js';
import { assertSchema, type Schema, type SchemaOutput } from './schema.js';

/** How much harm a tool can do; approvals and guardrails key off it. */
export type ToolRisk = 'safe' | 'moderate' | 'risky';

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  /** Aborts on caller abort, run abort or the tool's own timeout. */
  signal: AbortSignal;
  runId: string;
  toolCallId: string;
  stepId?: string;
  agent?: string;
  sandbox?: Sandbox;
  /** Emits events tagged with this call as `parentId`. */
  emit: Emitter;
  /**
   * Reports how far the call got, as a `tool_progress` event; ignored once the
   * call has its result. Absent when the tool is called outside a runner.
   */
  progress?: (update: ToolProgress) => void;
}

/** A running tool's progress report: `progress` rises, `total` when known, `message` for people. */
export type ToolProgress = Omit<EventPayloads['tool_progress'], 'id' | 'name'>;

/** A tool definition. */
export interface Tool<Args = any, Result = unknown> {
  readonly name: string;
  readonly description: string;
  /** Validates the model's arguments into `Args`. */
  readonly parameters: Schema<Args>;
  readonly risk: ToolRisk;
  /** May run concurrently with other parallel-safe calls of the same turn. Default false. */
  readonly parallelSafe: boolean;
  /** Per-call timeout; the call's signal aborts when it expires. */
  readonly timeoutMs?: number;
  /** Output longer than this is truncated (with a marker) in what the model sees. */
  readonly maxOutputChars?: number;
  /**
   * Argument keys holding file paths. Parallel-safe calls whose paths overlap
   * run in order. Default: keys named `path`, `file`, `filePath`, `paths`.
   */
  readonly pathArgs?: readonly string[];
  /** JSON Schema of `parameters`, computed once. */
  readonly jsonSchema: Record<string, unknown>;
  execute(args: Args, ctx: ToolContext): Promise<Result> | Result;
}

/** Options of {@link defineTool}. */
export interface ToolDefinition<S extends StandardSchemaV1, Result> {
  name: string;
  description: string;
  /**
   * A zod 4 schema (`zod` 4 or `zod/v4` of 3.25), any Standard Schema, or `jsonSchema()`, of an
   * object: its JSON Schema must be `type: 'object'`, as every provider requires.
   */
  parameters: S;
  /**
   * The JSON Schema providers get, over the one the schema library makes.
   * Needed for a Standard Schema library without a converter.
   */
  jsonSchema?: JsonSchema;
  execute(args: SchemaOutput<S>, ctx: ToolContext): Promise<Result> | Result;
  risk?: ToolRisk;
  parallelSafe?: boolean;
  timeoutMs?: number;
  maxOutputChars?: number;
  pathArgs?: readonly string[];
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool.
 *
 * ```ts
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 *   parallelSafe: true,
 * });
 * ```
 * @throws ConfigError when the name is not 1–64 characters of `a-zA-Z0-9_-` (the providers' limit), when
 *   `parameters` is not a schema (a zod 3 schema included), when no JSON Schema can be made of it, or
 *   when that JSON Schema is not of `type: 'object'` (every provider requires one). The JSON Schema of a
 *   zod schema older than zod 4.2 is made once tandem's zod is imported: a zod type that is never an
 *   object is refused here, the rest before the first request that would send it.
 */
export function defineTool<S extends StandardSchemaV1, Result>(
  definition: ToolDefinition<S, Result>,
): Tool<SchemaOutput<S>, Result> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new ConfigError(`Tool name "${definition.name}" must match ${TOOL_NAME} (provider limit)`);
  }
  const label = `Tool '${definition.name}' parameters`;
  assertSchema(definition.parameters, label);
  if (definition.jsonSchema === undefined) assertZodObjectParameters(definition.parameters, label);
  const jsonSchema = parametersJsonSchema(
    definition.parameters,
    label,
    definition.jsonSchema,
    assertObjectParameters,
  );
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters as Schema<SchemaOutput<S>>,
    risk: definition.risk ?? 'safe',
    parallelSafe: definition.parallelSafe ?? false,
    timeoutMs: definition.timeoutMs,
    maxOutputChars: definition.maxOutputChars,
    pathArgs: definition.pathArgs,
    jsonSchema,
    execute: definition.execute,
  };
}

/** The provider-facing spec of a tool. */
export function toolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.jsonSchema };
}
