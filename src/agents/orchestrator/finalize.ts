/**
 * Finalize: the answer to the task from the steps' findings — a model call by
 * default, or the user's reducer. If the model call fails, the findings are
 * joined (seed 002's fallback) so no work is lost.
 * @module
 */
import { errorMessage, isAbortError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import { textOf } from '../../core/messages.js';
import { conversationView } from '../../core/run-input.js';
import { answeringModelId, type ModelInvoker } from '../../model/invoke.js';
import type { FinalizeInput, FinalizeReducer } from './option-groups.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';
import type { StepResult } from './step-result.js';
import type { Verification } from './verify.js';

/** The finalizer's system prompt. */
export const FINALIZE_SYSTEM_PROMPT =
  "Write the final answer to the user's task from the findings of the plan's steps below. Be complete and direct. If a step failed or was skipped, say plainly what could not be done and why.";

/** The findings as a text block: one section per step with its status. */
export function findingsText(steps: readonly StepResult[]): string {
  return steps
    .map((r) => {
      const body = r.status === 'completed' ? r.output : (r.error ?? r.status);
      return `### ${r.id}: ${r.description} (${r.status})\n${body}`;
    })
    .join('\n\n');
}

/** Joins the completed steps' outputs (the fallback answer). */
export function joinFindings(steps: readonly StepResult[]): string {
  const outputs = steps
    .filter((r) => r.status === 'completed' && r.output.trim())
    .map((r) => r.output.trim());
  return outputs.length ? outputs.join('\n\n') : 'I was unable to complete the task. Please try rephrasing.';
}

/** Produces the final answer; emits `token` events when the model streams. */
export async function finalizeAnswer(
  input: FinalizeInput,
  how: { reducer?: FinalizeReducer; invoker?: ModelInvoker; signal: AbortSignal; emit: Emitter },
): Promise<{ output: string; error?: string }> {
  if (how.reducer) return { output: await how.reducer(input) };
  if (!how.invoker) return { output: joinFindings(input.steps) };
  try {
    const response = await how.invoker.invoke(
      {
        system: FINALIZE_SYSTEM_PROMPT,
        messages: [
          ...conversationView(input.history),
          { role: 'user', content: `Task: ${input.task}\n\nStep findings:\n\n${findingsText(input.steps)}` },
        ],
      },
      { signal: how.signal, emit: how.emit },
    );
    how.emit.emit('usage', {
      model: answeringModelId(response, how.invoker),
      usage: response.usage,
      total: response.usage,
    });
    const text = textOf(response.message).trim();
    return text
      ? { output: text }
      : { output: joinFindings(input.steps), error: 'The finalizer returned no text.' };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return { output: joinFindings(input.steps), error: `Finalizer failed: ${errorMessage(error)}` };
  }
}

/** What the finalize phase answers from: the plan's results, and the verdict and re-plans so far. */
export interface FinalizeWork {
  input: FinalizeInput;
  revisions: number;
  verification?: Verification;
}

/**
 * The finalize phase, recorded as phase `finalizing` with the verdict and
 * re-plans so far: the answer, and the run's status — `success` only when
 * every step completed and the verifier did not say FAIL.
 */
export async function finalizePhase(
  scope: RunScope,
  how: { reducer?: FinalizeReducer; invoker?: ModelInvoker },
  judged: FinalizeWork,
): Promise<{ output: string; status: 'success' | 'partial' | 'failed' }> {
  const { bus, recorder, signal } = scope;
  const { input, revisions, verification } = judged;
  await recorder.phase('finalizing', verification ? { revisions, verification } : { revisions });
  const final = await stage(bus, 'finalizing', () =>
    finalizeAnswer(input, { ...how, signal, emit: bus.scope({ agent: 'finalizer' }) }),
  );
  const { steps } = input;
  const completed = steps.filter((r) => r.status === 'completed').length;
  const status =
    completed === steps.length && verification?.verdict !== 'fail'
      ? 'success'
      : completed
        ? 'partial'
        : 'failed';
  return { output: final.output, status };
}
