/**
 * One attempt at a plan step: an Executor run on the attempt's prompt, under
 * its own timeout that aborts the attempt's work through the execution's
 * signal, its own and linked to the run's (the seed only stopped waiting), with its
 * conversation reported at every checkpoint. A failed or interrupted
 * attempt is an outcome, not an error: only the run's abort is thrown.
 * @module
 */
import { errorMessage, RunError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { abortErrorOf } from '../../core/run.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import type { ConversationState } from '../../state/run-state.js';
import { type Executor, executeOn } from '../executor/index.js';

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
  stepTimeoutMs: number;
  /** The run's budget: the attempt's execution stops when it is spent. */
  budget?: BudgetCheck;
  /** Told about the attempt's conversation at every checkpoint-worthy moment. */
  onConversation?: (
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ) => Promise<void>;
}

/** What one attempt runs: the executor on the attempt's rung, with its system prompt, input and history. */
export interface AttemptCall {
  executor: Executor;
  mode: AttemptMode;
  system: string;
  input: string | Message[];
  history: Message[] | undefined;
}

/** Where attempts run: the step (by its id), the settings its attempts share, the run's signal and the step's emitter. */
export interface AttemptSite {
  step: { id: string };
  deps: AttemptSettings;
  signal: AbortSignal;
  emit: Emitter;
}

/**
 * Runs one attempt to its outcome: its execution's result read as one —
 * an execution that waits for a human is an outcome of kind `interrupted`.
 * Rejects only on the run's abort.
 */
export async function runAttempt(call: AttemptCall, site: AttemptSite): Promise<AttemptOutcome> {
  const { executor, mode, system, input, history } = call;
  const { deps, signal, emit } = site;
  const stepId = site.step.id;
  let timedOut = false;
  const seconds = Math.round(deps.stepTimeoutMs / 1000);
  // The attempt's time limit aborts the execution's signal: the attempt's one, made by the execution and
  // linked to the run's, so a listener a tool leaves on it dies with the attempt, out of any later one's reach.
  const deadline = {
    ms: deps.stepTimeoutMs,
    reason: () => {
      timedOut = true;
      return new RunError('timeout', `Step timed out after ${seconds} seconds`);
    },
  };
  const onConversation = deps.onConversation;
  const conversation = { mode, system };
  try {
    const result = await executeOn(executor, input, {
      system,
      history,
      signal,
      deadline,
      emit,
      stepId,
      budget: deps.budget,
      onCheckpoint: onConversation ? (messages) => onConversation(conversation, messages) : undefined,
    });
    // An answer stands even when the run stopped meanwhile (the budget its call spent): it is paid for.
    if (result.status === 'success') return { ok: true, output: result.output };
    // The run's abort (the caller's, its budget's, a pause's) is the run's end, not this attempt's failure.
    if (signal.aborted) throw abortErrorOf(signal);
    if (timedOut) return timeout(seconds);
    return {
      ok: false,
      kind: result.error?.kind ?? 'incomplete',
      error: result.error?.message ?? 'The step ended without a complete answer.',
      output: result.output,
    };
  } catch (error) {
    if (signal.aborted) throw error;
    if (timedOut) return timeout(seconds);
    const kind = (error as { kind?: unknown }).kind;
    return {
      ok: false,
      kind: typeof kind === 'string' ? kind : 'internal',
      error: errorMessage(error),
      output: '',
    };
  }
}

function timeout(seconds: number): FailedAttempt {
  return { ok: false, kind: 'timeout', error: `Step timed out after ${seconds} seconds`, output: '' };
}
