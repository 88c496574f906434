/**
 * Turns a model turn's raw tool calls into calls ready to run or into the
 * error results the model gets back instead. Every call id ends up with
 * exactly one entry, so no tool_use is ever left without a result.
 * @module
 */
import type { ToolCallPart } from '../core/messages.js';
import { parseArguments } from './arguments.js';
import type { ToolRegistry, ToolResolution } from './registry.js';
import { checkSchema, type SchemaIssue, type SchemaValidation } from './schema.js';
import type { Tool } from './types.js';

/** Why a call does not run. */
export type PreparedCallStatus = 'unknown_tool' | 'invalid_json' | 'invalid_args' | 'skipped';

/** One call of a turn, ready to run or answered with `message`. */
export type PreparedCall =
  | {
      status: 'ready';
      call: ToolCallPart;
      tool: Tool;
      /** Arguments as the tool's schema returned them (defaults and transforms applied). */
      args: unknown;
      /** The name the model used, when the registry repaired it. */
      requestedName?: string;
    }
  | {
      status: PreparedCallStatus;
      call: ToolCallPart;
      /** The result the model gets for this call. */
      message: string;
      tool?: Tool;
      /** Parsed arguments, when they parsed; events show the raw text otherwise. */
      args?: unknown;
    };

/** The prepared calls of one turn, in call order. */
export interface PreparedTurn {
  calls: PreparedCall[];
  /** Some call named no known tool; nothing runs this turn. */
  unknownTool: boolean;
  /** Some call's arguments were not JSON; nothing runs this turn. */
  invalidJson: boolean;
}

const SKIPPED_FOR_NAME =
  'Skipped: another tool call in this turn used an invalid name. Please retry this tool call.';
const SKIPPED_FOR_JSON = 'Skipped: other tool call in this response had invalid JSON.';

/**
 * Resolves names, parses and validates arguments, and drops same-turn
 * duplicates. An unknown name or invalid JSON in any call answers the whole
 * turn with error and "skipped" results (the model retries the turn as a
 * whole); invalid arguments only fail their own call. Asynchronous because a
 * schema may validate asynchronously; the calls are validated concurrently.
 */
export async function prepareToolCalls(
  registry: ToolRegistry,
  calls: readonly ToolCallPart[],
): Promise<PreparedTurn> {
  // Plain loops: this runs on every tool turn.
  const tools = new Array<ReturnType<ToolRegistry['resolve']>>(calls.length);
  let unknown = false;
  for (let i = 0; i < calls.length; i++) {
    tools[i] = registry.resolve(calls[i]!.name);
    if (!tools[i]) unknown = true;
  }
  if (unknown) {
    const available = registry.names().join(', ');
    return {
      calls: calls.map((call, i) => {
        const resolved = tools[i];
        if (resolved) {
          const parsed = parseArguments(call.arguments);
          const args = parsed.ok ? parsed.value : undefined;
          return { status: 'skipped', call, message: SKIPPED_FOR_NAME, tool: resolved.tool, args };
        }
        const message = `Tool '${call.name}' does not exist. Available tools: ${available}`;
        return { status: 'unknown_tool', call, message };
      }),
      unknownTool: true,
      invalidJson: false,
    };
  }
  const parsed = new Array<ReturnType<typeof parseArguments>>(calls.length);
  let invalidJson = false;
  for (let i = 0; i < calls.length; i++) {
    parsed[i] = parseArguments(calls[i]!.arguments);
    if (!parsed[i]!.ok) invalidJson = true;
  }
  if (invalidJson) {
    return {
      calls: calls.map((call, i) => {
        const result = parsed[i]!;
        const tool = tools[i]!.tool;
        if (result.ok)
          return { status: 'skipped', call, message: SKIPPED_FOR_JSON, tool, args: result.value };
        const message = `Error: Invalid JSON arguments. ${result.error.replace(/\.$/, '')}. For tools with no required parameters, use an empty object: {}. Please retry with valid JSON.`;
        return { status: 'invalid_json', call, message, tool };
      }),
      unknownTool: false,
      invalidJson: true,
    };
  }
  const prepared = new Array<PreparedCall | Promise<PreparedCall>>(calls.length);
  let pending = false;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const resolution = tools[i]!;
    const { tool } = resolution;
    const raw = (parsed[i] as { value: Record<string, unknown> }).value;
    const first = firstSame(calls, tools, i);
    if (first !== undefined) {
      const message = `Skipped: duplicate of tool call ${first} in this turn (same tool and arguments); see its result.`;
      prepared[i] = { status: 'skipped', call, message, tool, args: raw };
      continue;
    }
    const validated = checkSchema(tool.parameters, raw);
    if (validated instanceof Promise) pending = true;
    prepared[i] =
      validated instanceof Promise
        ? validated.then((outcome) => readyCall(call, resolution, outcome))
        : readyCall(call, resolution, validated);
  }
  // Schemas that validate synchronously (zod's) need no `Promise.all`: a promise per call less every turn (bench/).
  const ready = pending ? await Promise.all(prepared) : (prepared as PreparedCall[]);
  return { calls: ready, unknownTool: false, invalidJson: false };
}

/** The id of an earlier call of the turn to the same tool with the same arguments text. */
function firstSame(
  calls: readonly ToolCallPart[],
  tools: readonly (ReturnType<ToolRegistry['resolve']> | undefined)[],
  index: number,
): string | undefined {
  // Turns hold a handful of calls: comparing pairs costs less than a map and a key per call.
  const { arguments: text } = calls[index]!;
  const tool = tools[index]!.tool;
  for (let j = 0; j < index; j++) {
    if (tools[j]!.tool === tool && calls[j]!.arguments === text) return calls[j]!.id;
  }
  return undefined;
}

/** A call whose arguments parsed as JSON, settled by its schema check. */
function readyCall(
  call: ToolCallPart,
  { tool, requestedName }: ToolResolution,
  validated: SchemaValidation<unknown>,
): PreparedCall {
  if (!validated.success) {
    // Parsed again rather than carried: the arguments only matter on this rare path, and
    // parsing is deterministic, so the events see the same arguments.
    const parsed = parseArguments(call.arguments);
    return {
      status: 'invalid_args',
      call,
      message: describeIssues(tool.name, validated.issues),
      tool,
      args: parsed.ok ? parsed.value : undefined,
    };
  }
  return requestedName === undefined
    ? { status: 'ready', call, tool, args: validated.data }
    : { status: 'ready', call, tool, args: validated.data, requestedName };
}

function describeIssues(toolName: string, issues: readonly SchemaIssue[]): string {
  const lines = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return `Invalid arguments for tool '${toolName}': ${lines.join('; ')}. Please retry with corrected arguments.`;
}
