/**
 * One turn of the ReAct loop: the stop checks of its start, a model call,
 * and what the reply leads to, returned as a {@link TurnOutcome}
 * (`turn-outcome.ts`) for the loop (`loop.ts`) to switch on.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { ModelResponse } from '../../model/types.js';
import { bookUsage, callModel } from './call-model.js';
import { handleReply } from './handle-reply.js';
import type { LoopState } from './loop-state.js';
import { salvage } from './salvage.js';
import { stopOf, stopped, type TurnOutcome } from './turn-outcome.js';

/**
 * One turn: the stop checks of its start, a model call, and what the reply
 * leads to (`handle-reply.ts`). Rejects only for a failure (the model's, an
 * invalid tool turn, a failed checkpoint); a stop is an outcome.
 */
export function turn(loop: LoopState): Promise<TurnOutcome> {
  const stop = stopOf(loop);
  if (stop) return Promise.resolve(stop);
  const max = loop.deps.limits.maxIterations;
  if (loop.iterations >= max) {
    const error = new RunError('max_iterations', `Stopped after ${max} iteration(s) without a final answer`);
    return Promise.resolve(stopped('max_iterations', error));
  }
  // Promise handlers, not an `await`, and one layer for a reply and a broken stream alike: a run waiting on
  // its model holds no suspended frame of the turn and one promise for it (bench: memory per waiting run).
  return callModel(loop).then(
    (response) => {
      bookUsage(loop, response);
      return afterCall(loop, response);
    },
    (error: unknown) => afterCall(loop, salvage(loop, error)),
  );
}

function afterCall(loop: LoopState, response: ModelResponse): Promise<TurnOutcome> {
  // The call is paid for: a reply that answers stands, one that calls tools stops if the budget is spent.
  // Counted now, so that the run's other work in flight stops at once.
  loop.run.budget?.check();
  return handleReply(loop, response);
}
