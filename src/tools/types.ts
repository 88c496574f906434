/**
 * Tools: what a model can call. Parameters are any Standard Schema (zod 4,
 * valibot, arktype…) or `jsonSchema()`; providers get the JSON Schema the
 * schema library makes (see `model/schema-json.ts`), made when a request
 * first needs it (see {@link toolSpec}).
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError } from '../core/errors.js';
import type { Emitter, EventPayloads } from '../core/events.js';
import type { Sandbox } from '../core/sandbox.js';
import { jsonSchemaNow, jsonSchemaOf } from '../model/schema-json.js';
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
  /** The executor turn (1, 2, …) whose model reply made the call: a turn's calls share it. Absent outside an executor. */
  turn?: number;
  /** Emits events tagged with this call as `parentId`. */
  emit: Emitter;
  /**
   * Reports how far the call got, as a `tool_progress` event; ignored once the
   * call has its result. Absent when the tool is called outside a runner.
   */
  progress?: (update: ToolProgress) => void;
  /**
   * Called by a call that starts waiting for a human (an approval, a
   * question); returns the function that ends the wait. The executor's
   * wall-clock budget stops meanwhile: a human may take longer than the
   * whole budget. Absent outside an executor.
   */
  waitingForHuman?: () => () => void;
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
  /**
   * The JSON Schema providers get, over the one made from `parameters` (the
   * definition's `jsonSchema`). {@link toolSpec} gives the one sent.
   */
  readonly jsonSchema?: JsonSchema;
  /**
   * Whether a call must be approved by a human before it runs: `true`, or a
   * predicate over the call's arguments. Without an interrupt bus to ask on,
   * the run ends `interrupted` with the call in `result.interruptions`.
   * Absent: the approval threshold (`ApprovalGate`'s `threshold`) decides.
   */
  readonly needsApproval?: NeedsApproval<Args>;
  /**
   * Set on a tool that puts a question to a human (`askUserTool`): the
   * question a call asks. A run that pauses to ask (`pauseOnInterrupt`)
   * then defers the call as an interruption of kind `question`, answered on
   * the result's state (`state.answer(id, value)`); the resumed run gives
   * the call that answer as its result, without asking again.
   */
  readonly question?: (args: Args) => ToolQuestion;
  execute(args: Args, ctx: ToolContext): Promise<Result> | Result;
}

/** A question a tool call puts to a human: free text, or one of `options`. */
export interface ToolQuestion {
  title: string;
  options?: string[];
}

/** What a {@link NeedsApproval} predicate gets besides the call's arguments. */
export interface NeedsApprovalContext {
  runId: string;
  toolCallId: string;
  stepId?: string;
  agent?: string;
}

/** A tool's `needsApproval`: always, never, or decided per call. */
export type NeedsApproval<Args = any> =
  | boolean
  | ((args: Args, ctx: NeedsApprovalContext) => boolean | Promise<boolean>);

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
  /** See {@link Tool.needsApproval}. */
  needsApproval?: NeedsApproval<SchemaOutput<S>>;
  /** See {@link Tool.question}. */
  question?: (args: SchemaOutput<S>) => ToolQuestion;
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
 *   object is refused here, the rest when the first request's tool specs are built (see {@link toolSpec}).
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
  // Judged now when it can be made now; a schema waiting on tandem's zod is judged by toolSpec.
  jsonSchemaNow(definition.parameters, label, {
    given: definition.jsonSchema,
    check: assertObjectParameters,
  });
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters as Schema<SchemaOutput<S>>,
    risk: definition.risk ?? 'safe',
    parallelSafe: definition.parallelSafe ?? false,
    timeoutMs: definition.timeoutMs,
    maxOutputChars: definition.maxOutputChars,
    pathArgs: definition.pathArgs,
    ...(definition.jsonSchema === undefined ? {} : { jsonSchema: definition.jsonSchema }),
    ...(definition.needsApproval === undefined ? {} : { needsApproval: definition.needsApproval }),
    ...(definition.question === undefined ? {} : { question: definition.question }),
    execute: definition.execute,
  };
}

/**
 * The provider-facing spec of a tool: its `jsonSchema`, else the JSON Schema
 * of its `parameters`, made on first need and kept per schema. A zod schema
 * older than zod 4.2, or one of tandem's own, imports tandem's zod first.
 * @throws ConfigError (as a rejection) when no JSON Schema can be made of `parameters`, or the one made
 *   is not of `type: 'object'`.
 */
export async function toolSpec(tool: Tool): Promise<ToolSpec> {
  const label = `Tool '${tool.name}' parameters`;
  const parameters =
    tool.jsonSchema ?? (await jsonSchemaOf(tool.parameters, label, { check: assertObjectParameters }));
  return { name: tool.name, description: tool.description, parameters };
}
