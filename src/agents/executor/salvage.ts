/**
 * Salvaging a broken stream. A stream that broke after its text was shown
 * cannot be retried without showing it twice; the text delivered is kept
 * instead, as a reply cut by the length limit, so the model is asked to
 * continue where it stopped (within the same continuation budget).
 * Unfinished tool calls of such a reply are dropped: their arguments may be cut.
 * @module
 */
import { StreamInterruptedError } from '../../model/resilience/errors.js';
import type { ModelResponse } from '../../model/types.js';
import type { LoopState } from './loop-state.js';

/** The reply a broken stream delivered, as cut by the length limit; rethrows what cannot be salvaged. */
export function salvage(loop: LoopState, error: unknown): ModelResponse {
  const { deps, run } = loop;
  if (!(error instanceof StreamInterruptedError) || run.signal.aborted) throw error;
  const content = error.partial.message.content.filter((p) => p.type === 'text' || p.type === 'reasoning');
  if (!content.some((p) => p.type === 'text' && p.text.trim() !== '')) throw error;
  if (loop.continuations >= deps.limits.maxLengthContinuations) throw error;
  run.emit.emit('retry', {
    model: deps.invoker.id,
    attempt: loop.continuations + 1,
    delayMs: 0,
    error: { kind: error.kind, message: error.message },
  });
  return { ...error.partial, message: { role: 'assistant', content }, finishReason: 'length' };
}
