/**
 * Long-term memory around an orchestrated run: the turn is opened once for
 * the run (working memory read, earlier threads recalled for the task), every
 * executor of the run — the simple path, plan steps, the takeover — finds it
 * by the run's id and puts it in its system prompt, and the task and the
 * answer are remembered when the run settles.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { LongTermMemory } from '../../state/long-term-memory.js';
import type { RunState } from '../../state/run-state.js';
import type { OrchestratorResult } from './options.js';

/** What {@link aroundOrchestration} reads of the run. */
export interface OrchestrationMemoryRun {
  state: Pick<RunState, 'runId' | 'task' | 'resourceId' | 'threadId'>;
  emit: Emitter;
  signal?: AbortSignal;
}

/** Runs `work` inside the run's memory turn when the run has a `resourceId` and the orchestrator a memory. */
export async function aroundOrchestration<R extends Pick<OrchestratorResult, 'status' | 'output'>>(
  memory: LongTermMemory | undefined,
  run: OrchestrationMemoryRun,
  work: () => Promise<R>,
): Promise<R> {
  const { runId, task, resourceId, threadId } = run.state;
  if (!memory || resourceId === undefined) return work();
  const ids = threadId === undefined ? { runId, resourceId } : { runId, resourceId, threadId };
  const context = { emit: run.emit, signal: run.signal };
  // open() fails only on abort; the run then ends aborted on the same signal.
  await memory.open(ids, task, context).catch(() => undefined);
  let result: R | undefined;
  try {
    result = await work();
    return result;
  } finally {
    const succeeded = result?.status === 'success' || result?.status === 'partial';
    const messages: Message[] = [{ role: 'user', content: task }];
    if (result?.output)
      messages.push({ role: 'assistant', content: [{ type: 'text', text: result.output }] });
    await memory.close(ids, { ...context, messages, succeeded });
  }
}
