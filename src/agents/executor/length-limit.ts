/**
 * Replies cut by the output length limit. A text reply is continued: the
 * model is asked to go on where it stopped, and the pieces are joined. A
 * reply that was calling tools is rolled back: none of its calls runs and the
 * next request asks for a shorter one. Both within `maxLengthContinuations`;
 * past it the execution ends `partial`.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { LoopState } from './loop-state.js';
import { CONTINUE, stopped, type TurnOutcome } from './turn-outcome.js';

/** The user message that asks a model to continue a reply cut by the output length limit. */
export const LENGTH_CONTINUE_PROMPT =
  '[System: Your previous response was truncated by the output length limit. Continue exactly where you left off. Do not restart or repeat prior text. Finish the answer directly.]';

/**
 * The note sent instead of running the tool calls of a reply cut by the
 * output length limit: their arguments may be cut, and a call that happens to
 * parse may still be missing what the model meant to write.
 */
export const LENGTH_ROLLBACK_NOTE =
  '[System: Your previous response was cut off by the output length limit while writing tool calls, so it was discarded and none of its tool calls ran. Respond again more briefly: make fewer or smaller tool calls (split large arguments across several calls), or give your final answer.]';

/**
 * Keeps the text of a cut reply and asks for its continuation, or — past
 * the continuation budget — stops the execution (`partial`, with the text so far).
 */
export function continueCutReply(loop: LoopState, text: string): TurnOutcome {
  loop.pendingText += text;
  if (loop.continuations < loop.deps.limits.maxLengthContinuations) {
    loop.continuations++;
    loop.run.messages.push({ role: 'user', content: LENGTH_CONTINUE_PROMPT });
    return CONTINUE;
  }
  const error = new RunError(
    'length',
    `Response remained truncated after ${loop.continuations} continuation attempt(s)`,
  );
  return stopped('length', error);
}

/**
 * A reply cut by the output length limit while it called tools: none of its
 * calls runs — arguments that parse may still be cut short of what the model
 * meant — and it is not kept. The next request asks for a shorter reply,
 * within the continuation budget; past it the execution ends `partial`.
 */
export function rollBack(loop: LoopState): TurnOutcome {
  loop.iterations++;
  const { limits, invoker } = loop.deps;
  const message = 'Reply cut by the output length limit while calling tools; its tool calls were not run';
  if (loop.continuations >= limits.maxLengthContinuations) {
    const error = new RunError('length', `${message} (after ${loop.continuations} continuation attempt(s))`);
    return stopped('length', error);
  }
  loop.continuations++;
  // Its text may already have streamed: the event says it is void and a new reply follows.
  loop.run.emit.emit('retry', {
    model: invoker.id,
    attempt: loop.continuations,
    delayMs: 0,
    error: { kind: 'length', message },
  });
  if (!loop.notes.includes(LENGTH_ROLLBACK_NOTE)) loop.notes.push(LENGTH_ROLLBACK_NOTE);
  return CONTINUE;
}
