/**
 * The Orchestrator's option groups: its models, and the groups it shares
 * with the Executor (`safety`, `context`, `limits`) widened by what only an
 * orchestrated run has — planning, plan steps, checkpoints, other questions
 * to a human.
 * @module
 */
import type { Message } from '../../core/messages.js';
import type { UserContent } from '../../core/run-input.js';
import type { ChatModel } from '../../model/types.js';
import type { InterruptBus } from '../../safety/approvals/interrupt-bus.js';
import type { CheckpointStore } from '../../state/checkpoint-store.js';
import type { ContextOptions, LimitOptions, SafetyOptions } from '../executor/index.js';
import type { Plan, PlannerOptions } from '../planner/index.js';
import type { CheckpointErrorPolicy } from './run-recorder.js';
import type { StepResult } from './step-result.js';
import type { TodoStore } from './todo-checklist.js';

/** What a reducer gets. */
export interface FinalizeInput {
  /** The request as text (images and files as placeholders). */
  task: string;
  /** The conversation the request continues; the finalizer model reads its user and assistant messages first. */
  history?: readonly Message[];
  plan: Plan;
  steps: readonly StepResult[];
}

/** A user-supplied finalizer. */
export type FinalizeReducer = (input: FinalizeInput) => string | Promise<string>;

/**
 * How the orchestrator classifies a task. A function gets the request's text
 * (images and files as placeholders) and, in `context`, the request as given
 * and the conversation before it.
 */
export type ClassifyMode =
  | 'auto'
  | 'heuristic'
  | 'llm'
  | ((task: string, context: ClassifyContext) => 'simple' | 'complex' | Promise<'simple' | 'complex'>);

/** What a classifier function gets besides the request's text. */
export interface ClassifyContext {
  signal: AbortSignal;
  /** The request as given: text, or parts with images and files. */
  input: UserContent;
  /** The conversation before the request. */
  history: readonly Message[];
}

/** The models of a run, by role. */
export interface OrchestratorModels {
  /** Decides, plans, writes enhanced instructions, takes failed steps over, revises. */
  planner: ChatModel;
  /** Runs simple tasks and plan steps. May be the same model as `planner`. */
  executor: ChatModel;
  /** Judges the results (a cheap, flash-tier model). Default: `executor`. `false` skips verification. */
  verifier?: ChatModel | false;
  /** Writes the final answer from the findings: a model (default `executor`) or a reducer. */
  finalizer?: ChatModel | FinalizeReducer;
}

/** The Executor's `safety`, and where answers to other questions go. */
export interface OrchestratorSafetyOptions extends SafetyOptions {
  /**
   * Advanced: where `resume` delivers answers to questions other than tool
   * approvals (e.g. `ask_user` on a live bus) when the run paused on them.
   */
  interrupts?: InterruptBus;
}

/** The Executor's `context` (applied to every executor of a run), and the findings steps read. */
export interface OrchestratorContextOptions extends ContextOptions {
  /** Cap per finding of an earlier step in a step's prompt. Default 2000 chars. */
  maxFindingChars?: number;
}

/**
 * The Executor's `limits` — `maxIterations`, `timeoutMs` and the other
 * per-execution limits apply to each simple task and each plan-step attempt;
 * `budget` to the whole run — and the limits of plan steps.
 */
export interface OrchestratorLimitOptions extends LimitOptions {
  /** Ready independent steps run at once. Default 1 (sequential, as the seeds). */
  stepConcurrency?: number;
  /** Per-attempt step timeout; cancels the attempt's work. Default 180 000 ms. */
  stepTimeoutMs?: number;
  /** Re-plans after a FAIL verdict. Default 1. */
  maxReplans?: number;
}

/**
 * How a task is classified and planned: the planner's settings (attempts,
 * retry delays, `fallbackToSingleStep`, `jsonMode`, prompts — its model,
 * invoker and runtime are the orchestrator's), the classifier, and where the
 * plan's checklist lives.
 */
export interface PlanningOptions extends Partial<Omit<PlannerOptions, 'model' | 'invoker' | 'runtime'>> {
  /** `auto` (heuristic, then the planner model when unsure; default), `heuristic`, `llm` or your own function. */
  classify?: ClassifyMode;
  /** Where the checklist lives. Default: a file in `sandbox` when given, else memory. */
  todoStore?: TodoStore;
}

/** Where a run's state is saved, and what a failed save does. */
export interface CheckpointOptions {
  /** Saves the run's state at every step boundary, tool turn and interrupt. */
  store: CheckpointStore;
  /**
   * What a failed save does. `warn` (default): the run goes on, a `stage`
   * event (`checkpoint`, `failed`) names each failure and
   * `result.checkpoints` counts them. `fail`: the first failure aborts the
   * run, which ends with that `CheckpointError` (kind `io` unless the store
   * said otherwise) — for runs that must never get ahead of their saved state.
   */
  onError?: CheckpointErrorPolicy;
}
