/**
 * A final answer: returned, or — with reflection on — first judged by a
 * cheap model, whose `RETRY` sends its feedback back into the loop.
 * @module
 */
import type { LoopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { result } from './outcome.js';
import { reflect, reflectionFeedback } from './reflection.js';

/** A final answer: returned, or first judged when reflection is on. */
export function answer(
  loop: LoopState,
  output: string,
): ExecutorResult | Promise<ExecutorResult | undefined> {
  return loop.deps.limits.reflection ? reflectOn(loop, output) : result(loop, output, 'success');
}

/**
 * Returns `output`, or — when the judge says `RETRY` and an iteration is
 * left — appends its feedback and returns `undefined` so the loop goes on.
 * A reflection cut by the wall-clock budget leaves the answer standing.
 */
async function reflectOn(loop: LoopState, output: string): Promise<ExecutorResult | undefined> {
  const { deps, run } = loop;
  const settings = deps.limits.reflection!;
  if (
    loop.reflections >= settings.maxReflections ||
    loop.toolTurns < settings.minToolTurns ||
    loop.iterations >= deps.limits.maxIterations
  ) {
    return result(loop, output, 'success');
  }
  loop.reflections++;
  let retry: string | undefined;
  try {
    const verdict = await reflect(settings, {
      messages: run.messages,
      firstNew: loop.firstNew,
      answer: output,
      signal: run.signal,
      emit: run.emit,
      usage: run.usage,
    });
    if (verdict.verdict === 'retry') retry = verdict.feedback;
  } catch (error) {
    if (!run.wallClock.timedOut) throw error;
  }
  if (retry === undefined || run.wallClock.timedOut) return result(loop, output, 'success');
  loop.retriedAnswer = output;
  loop.pendingText = '';
  loop.continuations = 0;
  run.messages.push(reflectionFeedback(retry));
  return undefined;
}
