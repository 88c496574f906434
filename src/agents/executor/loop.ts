/**
 * One execution of the ReAct loop: reason (model call) → act (tools, through
 * the gate) → repeat until the model answers, with the loop-safety rules of
 * docs/executor.md. A turn's phases have their own files: call the model
 * (`call-model.ts`, `salvage.ts`), handle the reply (`handle-reply.ts`,
 * `length-limit.ts`), run the tools (`run-tools.ts`), answer (`answer.ts`),
 * and with an output schema, the object (`structured-answer.ts`).
 * Per-turn work never grows with the history: the conversation array is
 * appended to and shared with the outgoing request.
 * @module
 */
import { isBudgetStop } from '../../core/run-budget.js';
import { handleReply } from './handle-reply.js';
import { type LoopDeps, type LoopRun, type LoopState, loopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { exhausted, partialOutput, result, timeoutError, typed } from './outcome.js';
import { runPendingCalls } from './run-tools.js';
import { callModelSalvaging } from './salvage.js';
import { withObject } from './structured-answer.js';

/**
 * Runs one execution to the end; with an output schema, its answer then
 * becomes the result's object (`structured-answer.ts`). Throws `RunError` /
 * `AbortError`, never anything untyped.
 */
export function runLoop(deps: LoopDeps, run: LoopRun): Promise<ExecutorResult> {
  const loop = loopState(deps, run);
  const outcome = answerOf(loop);
  return deps.output ? outcome.then((answer) => structured(loop, answer)) : outcome;
}

async function answerOf(loop: LoopState): Promise<ExecutorResult> {
  const { deps, run } = loop;
  try {
    const pending = runPendingCalls(loop);
    if (pending) await pending;
    for (;;) {
      checkBudget(loop);
      if (loop.iterations >= deps.limits.maxIterations) return exhausted(loop);
      const response = await callModelSalvaging(loop);
      // Awaited only when it is a promise: a turn of synchronous tools costs no extra hop.
      let answer = handleReply(loop, response);
      if (answer instanceof Promise) answer = await answer;
      if (answer) return answer;
      const pause = run.emit.backpressure();
      if (pause) await pause;
    }
  } catch (error) {
    // A run stopped by its budget ends with what it has, like one out of iterations.
    const reason = run.signal.reason;
    if (isBudgetStop(reason)) return result(loop, partialOutput(loop), 'partial', reason);
    throw typed(loop, error);
  }
}

async function structured(loop: LoopState, outcome: ExecutorResult): Promise<ExecutorResult> {
  try {
    return await withObject(loop, outcome);
  } catch (error) {
    const reason = loop.run.signal.reason;
    throw isBudgetStop(reason) ? reason : typed(loop, error);
  }
}

function checkBudget(loop: LoopState): void {
  const { signal, wallClock } = loop.run;
  if (signal.aborted) throw typed(loop, signal.reason);
  if (wallClock.timedOut) throw timeoutError(loop);
}
