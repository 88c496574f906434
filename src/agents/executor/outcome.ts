/**
 * How an execution ends: its result (a final answer, or the best partial
 * output when the iteration budget runs out) and the typed error it throws.
 * @module
 */
import { AbortError, errorMessage, ModelError, RunError, TandemError } from '../../core/errors.js';
import { abortErrorOf } from '../run.js';
import type { LoopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { toolOnlyOutput } from './tool-results.js';

/** The result of an execution that used up its iterations without a final answer. */
export function exhausted(loop: LoopState): ExecutorResult {
  const max = loop.deps.limits.maxIterations;
  const error = new RunError('max_iterations', `Stopped after ${max} iteration(s) without a final answer`);
  return result(loop, partialOutput(loop), 'partial', error);
}

/** The best answer of an execution cut short: text so far, a standing answer, or the last tool results. */
export function partialOutput(loop: LoopState): string {
  return (
    loop.pendingText || loop.retriedAnswer || (loop.lastOutcomes ? toolOnlyOutput(loop.lastOutcomes) : '')
  );
}

/** The execution's result with `output`. */
export function result(
  loop: LoopState,
  output: string,
  status: ExecutorResult['status'],
  error?: TandemError,
): ExecutorResult {
  const { messages, usage } = loop.run;
  const outcome: ExecutorResult = {
    output,
    status,
    messages,
    newMessages: messages.slice(loop.firstNew),
    usage: { ...usage },
    iterations: loop.iterations,
    toolCalls: loop.toolCalls,
    finishReason: loop.finishReason,
  };
  if (error) outcome.error = error;
  return outcome;
}

/** The error of an execution past its wall-clock budget. */
export function timeoutError(loop: LoopState): RunError {
  return new RunError('timeout', `Execution exceeded its ${loop.deps.limits.timeoutMs} ms budget`);
}

/** Maps anything thrown inside the loop to the error the execution ends with. */
export function typed(loop: LoopState, error: unknown): TandemError {
  const { run } = loop;
  if (run.wallClock.timedOut)
    return error instanceof RunError && error.kind === 'timeout' ? error : timeoutError(loop);
  if (run.signal.aborted) return abortErrorOf(run.signal);
  if (error instanceof RunError || error instanceof AbortError) return error;
  if (error instanceof ModelError) {
    return new RunError('model', `Model call failed (${error.kind}): ${error.message}`, { cause: error });
  }
  if (error instanceof TandemError) return error;
  return new RunError('internal', errorMessage(error), { cause: error });
}
