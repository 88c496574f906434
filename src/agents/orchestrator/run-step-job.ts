/**
 * Running a step job in this process, through the escalation ladder.
 * @module
 */
import type { OrchestrationParts } from './collaborators.js';
import { runStepLadder } from './escalation-ladder.js';
import type { StepJob, StepJobContext, StepJobResult } from './step-job.js';

/** Runs a step job here, through the escalation ladder, with the orchestrator's models and tools. */
export function runStepJob(
  parts: OrchestrationParts,
  job: StepJob,
  context: StepJobContext,
): Promise<StepJobResult> {
  const { options } = parts;
  return runStepLadder(
    job,
    {
      plan: job.plan,
      findings: job.findings,
      executor: parts.executor,
      takeover: parts.takeover,
      planner: parts.planner,
      stepTimeoutMs: options.stepTimeoutMs ?? 180_000,
      maxFindingChars: options.maxFindingChars ?? 2_000,
      instructions: options.instructions,
      todo: async () => job.todo,
      emit: context.emit.scope({ agent: 'executor' }),
      onConversation: context.onConversation,
      budget: context.budget,
      resume: job.resume,
      task: job.task,
      conversation: job.conversation,
    },
    context.signal,
  );
}
