/**
 * A final answer: returned, or — with reflection on — first judged by a
 * cheap model, whose `RETRY` sends its feedback back into the loop.
 * @module
 */
import type { LoopState } from './loop-state.js';
import { result } from './outcome.js';
import { reflect, reflectionFeedback } from './reflection.js';
import { CONTINUE, type TurnOutcome } from './turn-outcome.js';

/** A final answer: returned, or first judged when reflection is on. */
export function answer(loop: LoopState, output: string): TurnOutcome | Promise<TurnOutcome> {
  return loop.deps.limits.reflection ? reflectOn(loop, output) : answered(loop, output);
}

function answered(loop: LoopState, output: string): TurnOutcome {
  return { kind: 'answer', result: result(loop, output, 'success') };
}

/**
 * Returns `output`, or — when the judge says `RETRY` and an iteration is
 * left — appends its feedback and goes on.
 * A reflection cut by the wall-clock budget leaves the answer standing.
 */
async function reflectOn(loop: LoopState, output: string): Promise<TurnOutcome> {
  const { deps, run } = loop;
  const settings = deps.limits.reflection!;
  if (
    loop.reflections >= settings.maxReflections ||
    loop.toolTurns < settings.minToolTurns ||
    loop.iterations >= deps.limits.maxIterations
  ) {
    return answered(loop, output);
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
  if (retry === undefined || run.wallClock.timedOut) return answered(loop, output);
  loop.retriedAnswer = output;
  loop.pendingText = '';
  loop.continuations = 0;
  run.messages.push(reflectionFeedback(retry));
  return CONTINUE;
}
