/**
 * How one turn of the ReAct loop ends, as data: go on, the answer, an
 * interruption, or a stop and why (`turn.ts` runs a turn; `loop.ts` switches
 * on its outcome). Whatever detects a stop returns it: the run's budget and
 * wall clock are checked at the turn's boundaries, never by an event
 * listener; events only report.
 * @module
 */
import { AbortError, RunError, type TandemError } from '../../core/errors.js';
import { abortErrorOf } from '../../core/run.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import type { LoopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { timeoutError } from './outcome.js';

/** Why an execution stopped before its answer. */
export type StopReason = 'budget' | 'wall_clock' | 'max_iterations' | 'length' | 'aborted';

/** How one turn ended. */
export type TurnOutcome =
  | { kind: 'continue' }
  | { kind: 'answer'; result: ExecutorResult }
  | { kind: 'interrupted'; interruptions: Interruption[] }
  | { kind: 'stopped'; reason: StopReason; error: TandemError };

/** The outcome of a turn after which the loop goes on. */
export const CONTINUE: TurnOutcome = Object.freeze({ kind: 'continue' });

/**
 * The stop an execution is due for now: its wall clock ran out, its run's
 * budget is spent, or its signal aborted (a budget's deadline aborts the
 * run's calls in flight; the reason says it was the budget).
 */
export function stopOf(loop: LoopState): TurnOutcome | undefined {
  const { signal, wallClock, budget } = loop.run;
  if (wallClock.timedOut) return stopped('wall_clock', timeoutError(loop));
  const spent = budget?.check();
  if (spent) return stopped('budget', spent);
  if (!signal.aborted) return undefined;
  const reason = signal.reason;
  if (reason instanceof RunError && reason.kind === 'budget') return stopped('budget', reason);
  return stopped('aborted', reason instanceof AbortError ? reason : abortErrorOf(signal));
}

/** A stop with its reason and the error the result carries. */
export function stopped(reason: StopReason, error: TandemError): TurnOutcome {
  return { kind: 'stopped', reason, error };
}
