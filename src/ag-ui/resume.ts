/**
 * Answers a paused run's interruptions from an AG-UI request: `resume`
 * entries answer approvals and questions, tool messages answer the calls of
 * frontend tools.
 * @module
 */
import { isTandemError } from '../core/errors.js';
import type { PausedState } from '../state/paused-state.js';
import { AgUiError, type AgUiResumeEntryLike } from './input.js';

/** The answers an AG-UI request carries. */
export interface AgUiAnswers {
  resume: readonly AgUiResumeEntryLike[];
  /** Results of frontend tool calls, by tool call id. */
  toolResults: ReadonlyMap<string, string>;
}

/**
 * Records the answers on `state`: a `resolved` approval approves unless its
 * payload says `approved: false` (then it rejects with the payload's
 * `reason`), a `cancelled` one rejects; a question takes the payload (or the
 * frontend tool's result) as its answer. Returns the ids of the tool calls
 * the client already has (every call the paused run held), so the resumed
 * stream does not send them again.
 * @throws AgUiError `invalid_request` for an answer the state cannot take.
 */
export function answerPaused(state: PausedState, answers: AgUiAnswers): Set<string> {
  try {
    for (const entry of answers.resume) answerEntry(state, entry);
    for (const view of state.interrupts) {
      const result = view.toolCallId !== undefined ? answers.toolResults.get(view.toolCallId) : undefined;
      if (result !== undefined) state.answer(view.id, result);
    }
  } catch (error) {
    if (!isTandemError(error)) throw error;
    throw new AgUiError('invalid_request', `Cannot resume: ${error.message}`, { cause: error });
  }
  return new Set(state.interrupts.flatMap((v) => (v.toolCallId ? [v.toolCallId] : [])));
}

function answerEntry(state: PausedState, entry: AgUiResumeEntryLike): void {
  const view = state.interrupts.find((i) => i.id === entry.interruptId);
  const payload = (entry.payload ?? {}) as { approved?: unknown; reason?: unknown; value?: unknown };
  if (view?.kind !== 'approval') {
    const value = typeof entry.payload === 'string' ? entry.payload : String(payload.value ?? '');
    state.answer(entry.interruptId, value);
    return;
  }
  const reason = typeof payload.reason === 'string' ? payload.reason : undefined;
  if (entry.status === 'resolved' && payload.approved !== false) state.approve(entry.interruptId);
  else state.reject(entry.interruptId, reason);
}
