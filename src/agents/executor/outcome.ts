/**
 * How an execution ends: its result — the final answer, or the best output
 * so far of one cut short — with the typed error of one that did not succeed.
 * @module
 */
import { RunError, type TandemError } from '../../core/errors.js';
import type { LoopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { toolOnlyOutput } from './tool-results.js';

/** The best answer of an execution cut short: text so far, a standing answer, or the last tool results. */
export function partialOutput(loop: LoopState): string {
  return (
    loop.pendingText || loop.retriedAnswer || (loop.lastOutcomes ? toolOnlyOutput(loop.lastOutcomes) : '')
  );
}

/**
 * The result of an execution cut short (paused, stopped or failed): its
 * {@link partialOutput}, with the typed `error` of the stop.
 */
export function cutShort(
  loop: LoopState,
  status: ExecutorResult['status'],
  error?: TandemError,
): ExecutorResult {
  const outcome = result(loop, partialOutput(loop), status);
  if (error) outcome.error = error;
  return outcome;
}

/** The execution's result with `output`; {@link cutShort} adds the error of one that did not succeed. */
export function result(loop: LoopState, output: string, status: ExecutorResult['status']): ExecutorResult {
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
  return outcome;
}

/** The error of an execution past its wall-clock budget. */
export function timeoutError(loop: LoopState): RunError {
  return new RunError('timeout', `Execution exceeded its ${loop.deps.limits.timeoutMs} ms budget`);
}
