/**
 * Long-term memory around an execution: the working memory tool in the
 * executor's registry, the run's memory turn opened before it starts and
 * closed (its messages remembered) when it settles, and the turn's sections
 * in the system prompt of every request it makes.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { type RunIds, wordsOf } from '../../core/run-input.js';
import type { ModelRequest } from '../../model/types.js';
import { type LongTermMemory, systemWithMemory } from '../../state/long-term-memory.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ExecutorResult } from './options.js';

/** Adds the working memory tool to `registry`, unless it (this memory's own) is there already. */
export function addMemoryTool(registry: ToolRegistry, memory: LongTermMemory | undefined): void {
  const tool = memory?.tool;
  if (tool && registry.get(tool.name) !== tool) registry.register(tool);
}

/**
 * `base` with the memory of the run `runId` is part of (none: `base`
 * itself), for one execution of it (`stepId`): the version of the notes it
 * shows is what that execution's updates write over.
 */
export function withRunMemory(
  memory: LongTermMemory | undefined,
  base: Omit<ModelRequest, 'messages'>,
  execution: { runId: string; stepId?: string },
): Omit<ModelRequest, 'messages'> {
  const turn = memory?.turnOf(execution.runId);
  if (!turn) return base;
  turn.seen.set(execution.stepId ?? '', turn.version);
  const system = systemWithMemory(base.system, turn);
  return system === base.system ? base : { ...base, system };
}

/** What {@link aroundExecution} needs of the run. */
export interface MemoryRun {
  ids: RunIds & { runId: string };
  /** The run's input messages: the last user message among them is the request recalled for and remembered. */
  input: readonly Message[];
  emit: Emitter;
  signal?: AbortSignal;
}

/**
 * Runs `execute` inside a memory turn when the run has a `resourceId`: opens
 * it first (working memory read, earlier messages recalled), and closes it
 * when the execution settles, remembering the request and what the run
 * added when it did not fail.
 */
export function aroundExecution(
  memory: LongTermMemory | undefined,
  run: MemoryRun,
  execute: () => Promise<ExecutorResult>,
): Promise<ExecutorResult> {
  const { resourceId, threadId, runId } = run.ids;
  if (!memory || resourceId === undefined) return execute();
  const ids = threadId === undefined ? { runId, resourceId } : { runId, resourceId, threadId };
  const request = lastUserMessage(run.input);
  const query = request ? wordsOf(request.content as Parameters<typeof wordsOf>[0]) : '';
  // open() fails only on abort; the execution then ends aborted on the same signal.
  const opened = memory.open(ids, query, run).catch(() => undefined);
  const close = (messages: readonly Message[], succeeded: boolean) =>
    memory.close(ids, { messages, succeeded, emit: run.emit, signal: run.signal });
  return opened.then(execute).then(
    async (result) => {
      const succeeded = result.status === 'success' || result.status === 'partial';
      await close(request ? [request, ...result.newMessages] : result.newMessages, succeeded);
      return result;
    },
    async (error: unknown) => {
      await close([], false);
      throw error;
    },
  );
}

function lastUserMessage(messages: readonly Message[]): Message | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i];
  return undefined;
}
