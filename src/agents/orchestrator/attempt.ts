/**
 * One attempt at a plan step: an Executor run on the attempt's prompt, under
 * its own timeout that aborts the attempt's work through its signal (the
 * seed only stopped waiting; the signals: `attempt-signals.ts`), with its
 * conversation reported at every checkpoint. A failed attempt is an
 * outcome, not an error: only the run's abort and a pause are thrown.
 * @module
 */
import { errorMessage, RunError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { Clock } from '../../core/seams.js';
import type { ConversationState } from '../../state/run-state.js';
import type { Executor } from '../executor/index.js';
import { attemptSignal } from './attempt-signals.js';

/** The rung of the ladder an attempt is on. */
export type AttemptMode = 'normal' | 'enhanced' | 'takeover';

/** How an attempt ended. */
export type AttemptOutcome =
  | { ok: true; output: string }
  | { ok: false; error: string; kind: string; output: string };

/** An attempt that failed. */
export type FailedAttempt = Extract<AttemptOutcome, { ok: false }>;

/** What every attempt of a step shares. */
export interface AttemptSettings {
  clock: Clock;
  stepTimeoutMs: number;
  /** Told about the attempt's conversation at every checkpoint-worthy moment. */
  onConversation?: (
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ) => Promise<void>;
}

/** Runs one attempt to its outcome. Rejects only on the run's abort or a pause. */
export async function runAttempt(
  executor: Executor,
  system: string,
  input: string | Message[],
  history: Message[] | undefined,
  deps: AttemptSettings,
  signal: AbortSignal,
  emit: Emitter,
  stepId: string,
  mode: AttemptMode,
): Promise<AttemptOutcome> {
  const own = attemptSignal(signal);
  let timedOut = false;
  const seconds = Math.round(deps.stepTimeoutMs / 1000);
  const cancel = deps.clock.setTimer(deps.stepTimeoutMs, () => {
    timedOut = true;
    own.abort(new RunError('timeout', `Step timed out after ${seconds} seconds`));
  });
  const onConversation = deps.onConversation;
  const conversation = { mode, system };
  try {
    const result = await executor.execute(input, {
      system,
      history,
      signal: own.signal,
      abort: own.abort,
      emit,
      stepId,
      onCheckpoint: onConversation ? (messages) => onConversation(conversation, messages) : undefined,
    });
    if (result.status === 'success') return { ok: true, output: result.output };
    return {
      ok: false,
      kind: result.error?.kind ?? 'incomplete',
      error: result.error?.message ?? 'The step ended without a complete answer.',
      output: result.output,
    };
  } catch (error) {
    if (signal.aborted || isPause(error)) throw error;
    if (timedOut)
      return { ok: false, kind: 'timeout', error: `Step timed out after ${seconds} seconds`, output: '' };
    const kind = (error as { kind?: unknown }).kind;
    return {
      ok: false,
      kind: typeof kind === 'string' ? kind : 'internal',
      error: errorMessage(error),
      output: '',
    };
  } finally {
    cancel();
    own.release();
  }
}

/** An attempt that paused (approvals deferred): the run stops and resumes later. */
function isPause(error: unknown): boolean {
  return error instanceof RunError && error.kind === 'interrupted';
}
