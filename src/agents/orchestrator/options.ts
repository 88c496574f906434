/**
 * Options and results of the {@link Orchestrator}.
 * @module
 */
import type { TandemError } from '../../core/errors.js';
import type { Emitter, EventPayloads } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { PriceTable } from '../../core/pricing.js';
import type { RunBudgetLimits } from '../../core/run-budget.js';
import type { RunIds, UserContent } from '../../core/run-input.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import type { RetryOptions } from '../../model/resilience/retry-policy.js';
import type { Schema } from '../../model/schema.js';
import type { ChatModel } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { InterruptBus } from '../../safety/approvals/interrupt-bus.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import type { InterruptResponse } from '../../safety/approvals/interrupts.js';
import type { Guardrails } from '../../safety/guardrails/guardrails.js';
import type { CheckpointStore } from '../../state/checkpoint-store.js';
import type { PausedState } from '../../state/paused-state.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolGate } from '../../tools/runner.js';
import type { Tool, ToolRisk } from '../../tools/types.js';
import type { ExecutorOptions } from '../executor/index.js';
import type { HandoffManager } from '../handoff/index.js';
import type { Plan, PlannerOptions } from '../planner/index.js';
import type { ClassifyMode } from './classify.js';
import type { StepRecord } from './dispatch.js';
import type { FinalizeReducer } from './finalize.js';
import type { CheckpointErrorPolicy, CheckpointReport } from './run-recorder.js';
import type { StepRunner } from './step-job.js';
import type { TodoStore } from './todo-checklist.js';
import type { Verification } from './verify.js';

/**
 * What explicit skill modes need of a skill registry (the skills layer's
 * `SkillRegistry` is one): a direct invocation, no model turn. The
 * invocation is an `invoke_skill` tool call through the orchestrator's gate,
 * as when a model calls the skill.
 */
export interface DirectSkills {
  /** Whether a skill is registered (a `SkillRegistry` has it); lets a mode fall back to another skill. */
  has?(id: string): boolean;
  /** A registered skill's risk, which approvals weigh. Without it, or for an unknown skill: `risky`. */
  get?(id: string): { readonly risk?: ToolRisk } | undefined;
  invokeDirect(
    id: string,
    params: unknown,
    options: { signal?: AbortSignal; emit?: Emitter; sandbox?: Sandbox },
  ): Promise<unknown>;
}

/** A dedicated mode that invokes a skill directly with the task as one parameter (seed 002). */
export interface SkillMode {
  skill: string;
  /** The parameter that receives the task. */
  param: string;
  /** Used instead when the skills do not have `skill` (e.g. `web_research` for `research`). */
  fallback?: SkillMode;
}

/** The dedicated modes of seed 002: each runs one skill with the task, without an LLM turn. */
export const DEFAULT_SKILL_MODES: Readonly<Record<string, SkillMode>> = {
  research: { skill: 'research', param: 'query', fallback: { skill: 'web_research', param: 'query' } },
  data: { skill: 'data_analysis', param: 'query' },
  app: { skill: 'app_builder', param: 'description' },
  slide: { skill: 'slide_generation', param: 'topic' },
  image: { skill: 'image_generation', param: 'prompt' },
};

/**
 * Options of an {@link Orchestrator}. Defaults are the seeds'. `T` is the
 * type of the result's `object`, read from `output` (any schema when not given).
 */
export interface OrchestratorOptions<T = any> {
  /** Decides, plans, writes enhanced instructions, takes failed steps over, revises. */
  planner: ChatModel;
  /** Runs simple tasks and plan steps. May be the same model as `planner`. */
  executor: ChatModel;
  /** Judges the results (a cheap, flash-tier model). Default: `executor`. `false` skips verification. */
  verifier?: ChatModel | false;
  /** Writes the final answer from the findings: a model (default `executor`) or a reducer. */
  finalizer?: ChatModel | FinalizeReducer;
  tools?: Tool[] | ToolRegistry;
  /** Instructions placed first in every executor system prompt. */
  instructions?: string;
  /** `auto` (heuristic, then the planner model when unsure; default), `heuristic`, `llm` or your own function. */
  classify?: ClassifyMode;
  /** Ready independent steps run at once. Default 1 (sequential, as the seeds). */
  stepConcurrency?: number;
  /** Per-attempt step timeout; cancels the attempt's work. Default 180 000 ms. */
  stepTimeoutMs?: number;
  /** Re-plans after a FAIL verdict. Default 1. */
  maxReplans?: number;
  /** Cap per finding in a step's prompt. Default 2000 chars. */
  maxFindingChars?: number;
  /** Where the checklist lives. Default: a file in `sandbox` when given, else memory. */
  todoStore?: TodoStore;
  /** Given to tools; holds the checklist file. */
  sandbox?: Sandbox;
  /** Consulted before each tool call (guardrails, approvals). Default: `approvals.gate` when given. */
  gate?: ToolGate;
  /**
   * Input and output guardrails: a blocked task ends the run with a
   * `guardrail` error before any model call; the final answer is scanned and a
   * blocked or redacted answer is replaced — the replacement is what the
   * result and the saved state keep; outputs of untrusted tools (web, fetch,
   * search…) are screened for injected instructions before the model sees
   * them. (Tool-argument scans run in `approvals` or `guardrails.toolGate()`
   * as the `gate`.)
   */
  guardrails?: Guardrails;
  /**
   * The one place approvals are configured (scan first, then ask): its gate
   * guards every tool call, and `resume` delivers answers to it. With a
   * `bus`, questions are asked live (viewer buttons, Redis); without one,
   * the run pauses and ends `interrupted`. Default: a gate without a bus
   * that asks only about tools with `needsApproval`.
   */
  approvals?: ApprovalGate;
  /**
   * Backoff of failed model calls of the planner, executors, verifier and
   * finalizer: retryable failures (429, 5xx, timeouts, resets, stalled
   * streams) are retried with the seeds' numbers, honouring `Retry-After`
   * (docs/resilience.md). `false`: one attempt per model. Default: on.
   */
  retry?: RetryOptions | false;
  /** Models every role falls back to, in order, when its own model fails for good. Default none. */
  fallbacks?: ChatModel[];
  /**
   * Advanced: builds the invoker of each model, replacing the default
   * `createResilientInvoker({ models: [model, ...fallbacks], retry, runtime })`
   * (`retry` and `fallbacks` are then yours to apply). The same form as the
   * Executor's `invoker`.
   */
  invoker?: (model: ChatModel) => ModelInvoker;
  /**
   * Options for the planner built on `planner` (attempts, retry delays,
   * `fallbackToSingleStep`, `jsonMode`, prompts, …). Its model, invoker and
   * runtime are the orchestrator's.
   */
  plannerOptions?: Partial<Omit<PlannerOptions, 'model' | 'invoker' | 'runtime'>>;
  /** Options for the executors (iterations, tier, streaming, context management, …); `output` is the orchestrator's own. */
  executorOptions?: Partial<
    Omit<ExecutorOptions, 'model' | 'invoker' | 'retry' | 'fallbacks' | 'tools' | 'runtime' | 'output'>
  >;
  /** Specialist agents: `mode: '<agent>'` runs one directly; with `router`, the router picks one. */
  handoffs?: HandoffManager;
  /**
   * Routes a task to an agent of `handoffs`; the default agent means the
   * plan-or-not flow. `query` is the user's latest message as given (text,
   * or parts with images and files); `history` is the conversation before it.
   */
  router?: {
    route(
      query: UserContent,
      options: { signal?: AbortSignal; emit?: Emitter; history?: readonly Message[] },
    ): Promise<EventPayloads['routing']>;
    defaultAgent: string;
  };
  /** Skills for dedicated modes (`mode: 'research'`). */
  skills?: DirectSkills;
  /** Dedicated modes → skill and parameter. Default {@link DEFAULT_SKILL_MODES}. */
  skillModes?: Record<string, SkillMode>;
  /**
   * Runs plan steps somewhere else (e.g. `tandem-agents/queue` workers, which
   * call `Orchestrator.runStep`). Default: in this process.
   */
  stepRunner?: StepRunner;
  /** Saves the run's state at every step boundary, tool turn and interrupt. */
  checkpoints?: CheckpointStore;
  /**
   * What a failed checkpoint save does. `warn` (default): the run goes on,
   * a `stage` event (`checkpoint`, `failed`) names each failure and
   * `result.checkpoints` counts them. `fail`: the first failure aborts the
   * run, which ends with that `CheckpointError` (kind `io` unless the store
   * said otherwise) — for runs that must never get ahead of their saved state.
   */
  onCheckpointError?: CheckpointErrorPolicy;
  /**
   * Advanced: where `resume` delivers answers to questions other than tool
   * approvals (e.g. `ask_user` on a live bus) when the run paused on them.
   */
  interrupts?: InterruptBus;
  /**
   * Also pause on approvals of an `approvals` gate that has a bus, and on any
   * other question to a human, instead of waiting (status `interrupted`).
   * Default false. Not needed for the common case: an `approvals` gate
   * without a bus, or tools' `needsApproval` with no `approvals` at all,
   * always pause. Approvals let the rest of the tool batch run first, so the
   * saved state holds every result of the batch and lists every question;
   * any other question stops the run at once.
   */
  pauseOnInterrupt?: boolean;
  /** Clock, randomness, ids and tracing (e.g. `otelTracing()`). Default: the real ones, no tracing. */
  runtime?: Partial<Runtime>;
  /**
   * Prices of the models (USD per million tokens), merged over
   * `DEFAULT_PRICES`: `usage` events, the progress store and results carry
   * `costUsd`. `false`: no cost accounting.
   */
  prices?: PriceTable | false;
  /** Limits of every run (tokens, cost, tool calls, wall clock); see docs/cost.md. */
  budget?: RunBudgetLimits;
  /**
   * Every run's answer is an object of this schema (zod 4, any Standard
   * Schema, or `jsonSchema()`): the result carries it as `object` and its
   * JSON as `output` (docs/structured-output.md).
   */
  output?: Schema<T>;
}

/**
 * Options of one run: its ids (`runId` becomes the run's id on every event
 * and in its state) and the conversation it continues.
 */
export interface OrchestratorRunOptions extends RunIds {
  signal?: AbortSignal;
  /**
   * The conversation before the input. The classifier, router, planner and
   * verifier read it with the input (user and assistant text, images,
   * files); a simple run continues it, and the plan steps that depend on no
   * other step see it. Not modified; saved with the run's state.
   */
  history?: Message[];
  /** An agent name (of `handoffs`) or a dedicated skill mode: skips classification and routing. */
  mode?: string;
  /** Limits of this run, over the orchestrator's `budget`. */
  budget?: RunBudgetLimits;
  /** This run's answer is an object of this schema, over the orchestrator's `output`. */
  output?: Schema;
}

/** Options of {@link Orchestrator.resume}. */
export interface ResumeOptions {
  signal?: AbortSignal;
  /** The explicit mode the run was started with (`mode: 'app'`): a paused dedicated mode resumes in it. */
  mode?: string;
  /** The resumed run's answer is an object of this schema, over the orchestrator's `output`. */
  output?: Schema;
  /** Limits of the resumed run, over the orchestrator's `budget`; what the run spent before counts. */
  budget?: RunBudgetLimits;
  /**
   * Low-level: answers to the saved state's pending interrupts, by interrupt
   * id, over those recorded with `state.approve` / `state.reject`: an
   * approval's answer goes to `approvals` (the call is still scanned first),
   * others to the `interrupts` bus. Questions left unanswered are asked again
   * (the run pauses again, listing them with new ids); answered ones never are.
   */
  responses?: Record<string, InterruptResponse>;
}

/** The outcome of a run. */
export interface OrchestratorResult {
  output: string;
  /**
   * `success` only when every step completed; never `success` when a step
   * failed. `interrupted`: the run paused on the questions in
   * `interruptions`; answer them on `state` and pass it to `resume`.
   */
  status: 'success' | 'partial' | 'failed' | 'interrupted';
  complexity: 'simple' | 'complex';
  plan?: Plan;
  steps: StepRecord[];
  verification?: Verification;
  /** Re-plans made. */
  revisions: number;
  /** The agent that answered, for routed and explicit agent runs. */
  agent?: string;
  /** Summed over every model call of the run. */
  usage: Usage;
  /** Checkpoint saves made and refused; present when `checkpoints` (a store) is configured. */
  checkpoints?: CheckpointReport;
  /**
   * Why the run did not succeed (docs/results.md): what stopped a `partial`
   * run (e.g. a `RunError` of kind `budget`), what a `failed` one failed
   * with (the model's failure, an `AbortError`, a `CheckpointError`, …).
   */
  error?: TandemError;
  /** The answer as an object of the output schema (then `output` is its JSON); absent without one. */
  object?: unknown;
  /** With status `interrupted`: the tool calls (and questions) waiting for an answer. */
  interruptions?: Interruption[];
  /**
   * With status `interrupted`: the run's saved state. Answer with
   * `state.approve(id)` / `state.reject(id, message)`, then
   * `orchestrator.resume(state)` — now, or in another process after
   * `JSON.stringify(state)`.
   */
  state?: PausedState;
}

/** The result of a run whose output schema makes objects of type `T`. */
export type StructuredOrchestratorResult<T> = OrchestratorResult & { object: T };

/** The result of an {@link Orchestrator} with `output` of type `T`: structured, or plain when `T` is `undefined`. */
export type OrchestratorResultOf<T> = [T] extends [undefined]
  ? OrchestratorResult
  : StructuredOrchestratorResult<T>;
