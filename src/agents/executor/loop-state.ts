/**
 * Where one execution of the ReAct loop stands: what it needs from its
 * executor, its per-execution inputs, and the counters and carry-over that
 * the loop's phases (call the model, handle the reply, run the tools,
 * answer) share between turns.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import type { Clock } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { Watchdog } from '../../core/watchdog.js';
import type { ModelInvoker } from '../../model/invoke.js';
import type { FinishReason, ModelRequest, ToolSpec } from '../../model/types.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolOutcome, ToolRunner } from '../../tools/runner.js';
import type { ConversationContext } from './option-groups.js';
import type { ExecutorLimits } from './options.js';
import { RepetitionGuard } from './repetition.js';
import type { ExecutorSettings } from './settings.js';
import type { OutputPlan } from './structured-output.js';

/** What an execution needs from its executor. */
export interface LoopDeps {
  options: ExecutorSettings;
  limits: ExecutorLimits;
  invoker: ModelInvoker;
  registry: ToolRegistry;
  runner: ToolRunner;
  clock: Clock;
  /** The request fields that stay the same every turn (system prompt, sampling, response format). */
  base: Omit<ModelRequest, 'messages'>;
  /** How the answer becomes an object, for an execution with an output schema. */
  output?: OutputPlan;
}

/** Per-execution inputs. */
export interface LoopRun {
  messages: Message[];
  emit: Emitter;
  signal: AbortSignal;
  /** Accumulates the usage of every model call. */
  usage: Usage;
  stepId?: string;
  agent: string;
  /** See `ExecuteOptions.onCheckpoint`. */
  onCheckpoint?: (messages: readonly Message[]) => void | Promise<void>;
  /** This execution's context manager, if any. */
  context?: ConversationContext;
  /** The wall-clock budget: `timedOut` once it expired; stands still while a call waits for a human. */
  wallClock: { readonly timedOut: boolean; waitingForHuman(): () => void };
  /** The run's one timer: the wall clock's, the caller's deadline's and every model call's stall watch. */
  watchdog: Watchdog;
  /** Ends the link of `signal` to the caller's, when the execution made a signal of its own. */
  unlink?: () => void;
  /** The run's budget (tokens, cost, tool calls, wall clock), asked at the turn's boundaries. */
  budget?: BudgetCheck;
}

/** One execution in progress. */
export interface LoopState {
  readonly deps: LoopDeps;
  readonly run: LoopRun;
  /** Index of the first message this execution added. */
  readonly firstNew: number;
  iterations: number;
  toolCalls: number;
  emptyReplies: number;
  invalidJsonRetries: number;
  invalidToolTurns: number;
  continuations: number;
  errorStreak: number;
  /** Text of replies cut by the length limit, waiting for their continuation. */
  pendingText: string;
  lastOutcomes: ToolOutcome[] | undefined;
  toolTurns: number;
  reflections: number;
  /** The answer a reflection sent back; it stands if the model then gives no new one. */
  retriedAnswer: string | undefined;
  /** Notes the next request carries (repetition, tool errors, rollback). */
  notes: string[];
  readonly repetition: RepetitionGuard;
  finishReason: FinishReason;
  /** The request of the last turn (`call-model.ts` reuses it)… */
  request: ModelRequest | undefined;
  /** …and the tool list it was built with. */
  requestSpecs: readonly ToolSpec[] | undefined;
}

/** The state of an execution about to start on `run.messages`. */
export function loopState(deps: LoopDeps, run: LoopRun): LoopState {
  return {
    deps,
    run,
    firstNew: run.messages.length,
    iterations: 0,
    toolCalls: 0,
    emptyReplies: 0,
    invalidJsonRetries: 0,
    invalidToolTurns: 0,
    continuations: 0,
    errorStreak: 0,
    pendingText: '',
    lastOutcomes: undefined,
    toolTurns: 0,
    reflections: 0,
    retriedAnswer: undefined,
    notes: [],
    repetition: new RepetitionGuard(),
    finishReason: 'stop',
    // Declared here though set by the first call: a field added later moves every field past the object's
    // own slots into a separate array, 160 bytes more per run (bench: memory per waiting run).
    request: undefined,
    requestSpecs: undefined,
  };
}
