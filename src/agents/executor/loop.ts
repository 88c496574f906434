/**
 * One execution of the ReAct loop: reason (model call) → act (tools, through
 * the gate) → repeat until the model answers, with the loop-safety rules of
 * docs/executor.md. A turn's phases have their own files: call the model
 * (`call-model.ts`, `salvage.ts`), handle the reply (`handle-reply.ts`,
 * `length-limit.ts`), run the tools (`run-tools.ts`), answer (`answer.ts`),
 * and with an output schema, the object (`structured-answer.ts`).
 * Each turn returns its outcome as data (`turn.ts`); this loop switches on it.
 * Per-turn work never grows with the history: the conversation array is
 * appended to and shared with the outgoing request.
 * @module
 */
import {
  ConfigError,
  errorMessage,
  isErrorOf,
  ModelError,
  RunError,
  TandemError,
} from '../../core/errors.js';
import { type LoopDeps, type LoopRun, type LoopState, loopState } from './loop-state.js';
import type { ExecutorResult } from './options.js';
import { cutShort } from './outcome.js';
import { runPendingCalls } from './run-tools.js';
import { withObject } from './structured-answer.js';
import { turn } from './turn.js';
import { stopOf, type TurnOutcome } from './turn-outcome.js';

/**
 * Runs one execution to the end and returns its result, whatever the end:
 * `success` with the answer, `partial` when a stop cut it short (budget,
 * wall clock, iterations, length), `interrupted` with the questions a human
 * must answer, `failed` with the typed error (the model's failure, an abort,
 * …); it rejects only for misuse (a `ConfigError`). With an output schema,
 * the answer then becomes the result's object
 * (`structured-answer.ts`).
 */
export async function runLoop(deps: LoopDeps, run: LoopRun): Promise<ExecutorResult> {
  const loop = loopState(deps, run);
  let outcome: TurnOutcome;
  try {
    try {
      outcome = await runPendingCalls(loop);
      while (outcome.kind === 'continue') {
        const pause = run.emit.backpressure();
        if (pause) await pause;
        outcome = await turn(loop);
      }
    } catch (error) {
      // Misuse (a model without its API key, …) rejects the run: no result can help the caller.
      if (isErrorOf(error, ConfigError)) throw error;
      // A failure while a stop was due (an abort cutting a call) is that stop.
      const stop = stopOf(loop);
      if (!stop) return failed(loop, error);
      outcome = stop;
    }
    return await settle(loop, outcome as FinalOutcome);
  } finally {
    // Here rather than in a handler of the caller's: a layer of promises less for every waiting run (bench).
    releaseRun(run);
  }
}

/** The execution's timer and its link to the caller's signal, released once it ended. */
function releaseRun(run: LoopRun): void {
  run.watchdog.dispose();
  run.unlink?.();
}

/** An outcome that ends the loop. */
type FinalOutcome = Exclude<TurnOutcome, { kind: 'continue' }>;

/** The result a turn's final outcome makes. */
async function settle(loop: LoopState, outcome: FinalOutcome): Promise<ExecutorResult> {
  switch (outcome.kind) {
    case 'answer':
      // An answer whose call spent the budget stands, but makes no more calls for its object.
      return structured(loop, outcome.result, loop.run.budget?.check());
    case 'interrupted': {
      const names = outcome.interruptions.map((i) => i.toolName).join(', ');
      const error = new RunError('interrupted', `Paused on ${names}: answer on result.state, then resume`);
      const interrupted = cutShort(loop, 'interrupted', error);
      interrupted.interruptions = outcome.interruptions;
      return interrupted;
    }
    case 'stopped': {
      if (outcome.reason === 'aborted') return cutShort(loop, 'failed', outcome.error);
      const partial = cutShort(loop, 'partial', outcome.error);
      // A run out of time or budget makes no more calls for its object.
      const more = outcome.reason === 'max_iterations' || outcome.reason === 'length';
      if (more) return structured(loop, partial);
      return outcome.reason === 'budget' ? structured(loop, partial, outcome.error) : partial;
    }
  }
}

/**
 * `outcome` with the object of the output schema, when there is one. A run
 * whose budget is `spent` makes no more calls: the object must be in the
 * answer already, else the result is `partial` with the budget error.
 */
async function structured(loop: LoopState, outcome: ExecutorResult, spent?: TandemError) {
  if (!loop.deps.output) return outcome;
  try {
    return await withObject(loop, outcome, spent !== undefined);
  } catch (error) {
    if (isErrorOf(error, ConfigError)) throw error;
    if (spent) return { ...outcome, status: 'partial' as const, error: spent };
    return failed(loop, error);
  }
}

/**
 * The result of an execution that failed before its loop started (its
 * prompt, tool specs or output schema could not be made), with the run
 * released; misuse (a `ConfigError`) is rethrown.
 */
export function failedBeforeStart(run: LoopRun, error: unknown): ExecutorResult {
  releaseRun(run);
  if (isErrorOf(error, ConfigError)) throw error;
  const { messages, usage } = run;
  return {
    output: '',
    status: 'failed',
    messages,
    newMessages: [],
    usage: { ...usage },
    iterations: 0,
    toolCalls: 0,
    finishReason: 'stop',
    error: typed(error),
  };
}

/** The result of an execution that failed with `error`. */
function failed(loop: LoopState, error: unknown): ExecutorResult {
  return cutShort(loop, 'failed', typed(error));
}

/** Anything thrown inside the loop as the typed error the result carries. */
function typed(error: unknown): TandemError {
  if (error instanceof ModelError) {
    return new RunError('model', `Model call failed (${error.kind}): ${error.message}`, { cause: error });
  }
  if (error instanceof TandemError) return error;
  return new RunError('internal', errorMessage(error), { cause: error });
}
