/**
 * Working memory: per resource (user) notes the model reads in its system
 * prompt and replaces through one tool. With a schema the notes are a value
 * of it, checked on every update; without one they are text.
 * @module
 */
import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { ErrorInfo } from '../core/events.js';
import type { Schema, SchemaIssue } from '../model/schema.js';
import { validateSchema } from '../model/schema.js';
import { jsonSchemaNow } from '../model/schema-json.js';
import type { JsonSchema } from '../model/types.js';
import type { Tool, ToolContext } from '../tools/types.js';
import type { WorkingMemoryRecord, WorkingMemoryStore } from './memory-store.js';

/** Options of working memory (`memory.working`). */
export interface WorkingMemoryOptions {
  /**
   * What the notes are: a zod 4 or other Standard Schema (with a JSON Schema
   * converter, or `jsonSchema`). Omitted: free text.
   */
  schema?: Schema;
  /** The notes' JSON Schema, for a schema library without a converter. */
  jsonSchema?: JsonSchema;
  /** Text notes a user starts with (no schema), e.g. a Markdown outline of what to keep. */
  template?: string;
  /** The tool's name. Default `update_working_memory`. */
  toolName?: string;
}

/**
 * The working memory of one run, shared by the executions of the run (an
 * orchestrator's steps): the newest notes it knows, and per execution the
 * version its prompt showed — an update writes only over that version, so a
 * step never overwrites notes another step changed after it read them.
 */
export interface WorkingMemoryRun {
  resourceId: string;
  /** The version of `section` (0: none stored). */
  version: number;
  /** The notes section for prompts built from now on. */
  section?: string;
  /** Execution key (its step id, `''` for none) → the version its prompt showed. */
  seen: Map<string, number>;
}

/** Where the tool finds its run and its store. */
export interface WorkingMemoryHost {
  store: WorkingMemoryStore;
  runOf(runId: string): WorkingMemoryRun | undefined;
  now(): number;
}

export const DEFAULT_WORKING_MEMORY_TOOL = 'update_working_memory';

/** The system prompt section of a resource's working memory. */
export function workingMemorySection(
  record: WorkingMemoryRecord | undefined,
  options: WorkingMemoryOptions,
): string {
  const tool = options.toolName ?? DEFAULT_WORKING_MEMORY_TOOL;
  const value = record?.value ?? (options.schema ? undefined : options.template);
  const shown =
    value === undefined ? '(empty)' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return [
    '**Working memory** (what you keep about this user across conversations):',
    `<working_memory>\n${shown}\n</working_memory>`,
    `When you learn something worth keeping (preferences, facts, goals) or a note is out of date, call \`${tool}\` with the whole new memory: it replaces the old one, so keep what still holds.`,
  ].join('\n');
}

/**
 * The tool that replaces the working memory of the run's resource. An
 * update that does not match the schema, or one made over a version another
 * conversation changed meanwhile, fails with a message the model can act on.
 */
export function workingMemoryTool(host: WorkingMemoryHost, options: WorkingMemoryOptions): Tool {
  const memory: WorkingMemoryBinding = { host, options };
  return {
    name: options.toolName ?? DEFAULT_WORKING_MEMORY_TOOL,
    description:
      "Replace this user's working memory (shown in the system prompt) with `memory`: the complete new notes, not a diff.",
    parameters: argumentsSchema(options),
    risk: 'safe',
    parallelSafe: false,
    execute: (args: { memory: unknown }, ctx: ToolContext) => update(memory, args.memory, ctx),
  };
}

/** Where the tool writes: the notes' host and their options, made once per tool. */
interface WorkingMemoryBinding {
  readonly host: WorkingMemoryHost;
  readonly options: WorkingMemoryOptions;
}

async function update(memory: WorkingMemoryBinding, value: unknown, ctx: ToolContext): Promise<string> {
  const { host, options } = memory;
  const run = host.runOf(ctx.runId);
  if (!run) throw new Error('Working memory is not available in this run (it has no resourceId).');
  const key = ctx.stepId ?? '';
  const expectedVersion = run.seen.get(key) ?? run.version;
  const now = host.now();
  const written = await host.store.set(run.resourceId, value, { expectedVersion, now });
  if (!written) {
    const current = await host.store.get(run.resourceId);
    // The error shows the current notes: the model's next update merges into them.
    run.seen.set(key, current?.version ?? 0);
    const shown = current === undefined ? '(empty)' : JSON.stringify(current.value);
    throw new Error(
      `Working memory was changed by another conversation since you read it. It now holds: ${shown}. Merge your change into that and call the tool again.`,
    );
  }
  const version = expectedVersion + 1;
  run.seen.set(key, version);
  if (version > run.version) {
    run.version = version;
    run.section = workingMemorySection({ value, version, updatedAt: now }, options);
  }
  ctx.emit.emit('memory', { op: 'working_memory', version });
  return `Working memory saved (version ${version}).`;
}

/** `{ memory }`, its value checked by the notes' schema; its JSON Schema made by that schema's converter. */
function argumentsSchema(options: WorkingMemoryOptions): Schema<{ memory: unknown }> & StandardJSONSchemaV1 {
  const notes = options.schema;
  const noteJson = (): JsonSchema =>
    options.jsonSchema ??
    (notes ? (jsonSchemaNow(notes, 'memory.working.schema') ?? {}) : { type: 'string' });
  const inputJson = (): Record<string, unknown> => ({
    type: 'object',
    properties: { memory: { ...noteJson(), description: 'The complete new working memory.' } },
    required: ['memory'],
    additionalProperties: false,
  });
  return {
    '~standard': {
      version: 1,
      vendor: 'tandem',
      validate: (input: unknown) => validateArguments(input, notes),
      jsonSchema: { input: inputJson, output: inputJson },
    },
  };
}

type Outcome = { value: { memory: unknown } } | { issues: SchemaIssue[] };

function validateArguments(input: unknown, notes: Schema | undefined): Outcome | Promise<Outcome> {
  if (typeof input !== 'object' || input === null || !('memory' in input)) {
    return { issues: [{ path: ['memory'], message: 'Required: the complete new working memory' }] };
  }
  const memory = (input as { memory: unknown }).memory;
  if (!notes) {
    if (typeof memory === 'string') return { value: { memory } };
    return { issues: [{ path: ['memory'], message: 'Expected the notes as text' }] };
  }
  return validateSchema(notes, memory).then((outcome) =>
    outcome.success
      ? { value: { memory: outcome.data } }
      : { issues: outcome.issues.map((issue) => ({ ...issue, path: ['memory', ...issue.path] })) },
  );
}

/** An error as a `memory` event carries it. */
export function memoryErrorInfo(error: unknown): ErrorInfo {
  const kind =
    typeof (error as { kind?: unknown })?.kind === 'string' ? (error as { kind: string }).kind : 'error';
  return { kind, message: error instanceof Error ? error.message : String(error) };
}
