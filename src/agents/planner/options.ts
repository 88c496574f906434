/**
 * Options and results of the {@link Planner}.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import type { ChatModel } from '../../model/types.js';
import type { PlannerPrompts, StepOutcome, ToolHint } from './prompts.js';

/** Options of a {@link Planner}. */
export interface PlannerOptions {
  /** The planner model. */
  model: ChatModel;
  /** How calls reach the model. Default `directInvoker(model)`; pass a resilient invoker for provider retries and fallbacks. */
  invoker?: ModelInvoker;
  /** Clock for the waits between attempts. Default the real one. */
  runtime?: Partial<Runtime>;
  /** Model calls per operation, re-asks included. Default 3. */
  attempts?: number;
  /** Wait before attempt k+1 (last entry repeats). Default `[2500, 3750]`. */
  retryDelaysMs?: readonly number[];
  /** When createPlan fails, return a one-step plan running the whole task instead of throwing. Default false. */
  fallbackToSingleStep?: boolean;
  /** Replaces some or all system prompts. */
  prompts?: Partial<PlannerPrompts>;
  /**
   * The provider's JSON output on decide / createPlan / revise. Default: the
   * model's own mode (`ModelInfo.structuredOutput`) — the schema where the
   * provider enforces one, plain JSON where it guarantees JSON, nothing for
   * a model without either. `true` asks for plain JSON even then; `false`
   * never asks.
   */
  jsonMode?: boolean;
}

/** Per-call options of every Planner method. */
export interface PlannerCallOptions {
  signal?: AbortSignal;
  /** Receives `retry` events. */
  emit?: Emitter;
  /** Added into in place with the call's usage (failed attempts included), e.g. the run's total. */
  usage?: Usage;
  /**
   * The conversation the task continues: its user and assistant text, images
   * and files go to the model before the task (tool calls and results are
   * left out).
   */
  history?: readonly Message[];
}

/** Options of {@link Planner.createPlan} and {@link Planner.revise}. */
export interface PlanCallOptions extends PlannerCallOptions {
  /** Tools the executor has; listed in the prompt so steps name real ones. */
  tools?: readonly ToolHint[];
}

/** The answer of {@link Planner.decide}. */
export interface PlanningDecision {
  needsPlan: boolean;
  reasoning: string;
  /** Usage of this decision (all attempts). */
  usage: Usage;
}

/** Why and how a plan must change. A string is shorthand for `{ reason }`. */
export interface RevisionContext {
  /** Why the plan must change (verification feedback, a failure). */
  reason: string;
  /** The original task. Default: the plan's summary (or title). */
  task?: string;
  /** Steps that succeeded: kept as they are and never re-planned. */
  completed?: readonly StepOutcome[];
  /** Steps that failed: the planner may keep, change or replace them. */
  failed?: readonly StepOutcome[];
}
