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
import type { ResilienceOptions } from '../../model/resilience/invoker-options.js';
import type { Schema } from '../../model/schema.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import type { InterruptResponse } from '../../safety/approvals/interrupts.js';
import type { MemoryOptions } from '../../state/long-term-memory.js';
import type { PausedState } from '../../state/paused-state.js';
import type { Session } from '../../state/session.js';
import type { SessionReport } from '../../state/session-run.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolRisk } from '../../tools/types.js';
import type { ModelSettings, ReflectionOptions, SessionRunOptions } from '../executor/index.js';
import type { HandoffManager } from '../handoff/index.js';
import type { Plan } from '../planner/index.js';
import type {
  CheckpointOptions,
  OrchestratorContextOptions,
  OrchestratorLimitOptions,
  OrchestratorModels,
  OrchestratorSafetyOptions,
  PlanningOptions,
} from './option-groups.js';
import type { CheckpointReport } from './run-recorder.js';
import type { StepRunner } from './step-job.js';
import type { StepResult } from './step-result.js';
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
 * Options of an {@link Orchestrator}: its `models` by role, what its agents
 * share (tools, instructions, output), then one group per concept — the
 * Executor's `resilience`, `safety`, `context`, `limits`, `modelSettings`,
 * each widened by what only an orchestrated run has, and `planning`,
 * `checkpoints`. Defaults are the seeds'. `T` is the type of the result's
 * `object`, read from `output` (any schema when not given).
 *
 * ```ts
 * new Orchestrator({ models: { planner, executor }, tools, limits: { stepConcurrency: 4 } });
 * ```
 */
export interface OrchestratorOptions<T = any> {
  /** The models by role: `planner` and `executor`, optionally `verifier` and `finalizer`. */
  models: OrchestratorModels;
  tools?: Tool[] | ToolRegistry;
  /** Instructions placed first in every executor system prompt. */
  instructions?: string;
  /**
   * Every run's answer is an object of this schema (zod 4, any Standard
   * Schema, or `jsonSchema()`): the result carries it as `object` and its
   * JSON as `output` (docs/structured-output.md).
   */
  output?: Schema<T>;
  /** Given to tools; holds the checklist file. */
  sandbox?: Sandbox;
  /** Clock, randomness, ids and tracing (e.g. `otelTracing()`). Default: the real ones, no tracing. */
  runtime?: Partial<Runtime>;
  /** Stream model replies of the executors and the finalizer (emitting `token` / `reasoning`). Default true. */
  stream?: boolean;
  /**
   * Prices of the models (USD per million tokens), merged over
   * `DEFAULT_PRICES`: `usage` events, the progress store and results carry
   * `costUsd`. `false`: no cost accounting.
   */
  prices?: PriceTable | false;
  /** The executors' reflection step (see the Executor's `reflection`). Off when absent. */
  reflection?: ReflectionOptions;
  /** Sampling settings of the executors' model calls. */
  modelSettings?: ModelSettings;
  /**
   * How the planner, executors, verifier and finalizer call their models:
   * retries with backoff (on by default, the seeds' numbers, honouring
   * `Retry-After`; `retry: false` for one attempt), `fallbacks` every role
   * falls back to, or your own `invoker` factory (docs/resilience.md).
   */
  resilience?: ResilienceOptions;
  /**
   * Guardrails (input, tool calls, untrusted tool outputs, the answer),
   * approvals, the advanced tool gate, pausing on questions, and where
   * answers to other questions go (docs/approvals.md, docs/guardrails.md).
   */
  safety?: OrchestratorSafetyOptions;
  /** The executors' context management, request rewriting and tool-output size; findings size (docs/context.md). */
  context?: OrchestratorContextOptions;
  /** The executors' limits, the run's budget, and step concurrency, timeouts and re-plans. */
  limits?: OrchestratorLimitOptions;
  /** Classification, the planner's settings and the checklist's store (docs/planning.md). */
  planning?: PlanningOptions;
  /** Saves the run's state (a store) at every step boundary, tool turn and interrupt. */
  checkpoints?: CheckpointOptions;
  /**
   * Long-term memory of the runs given a `resourceId`: every executor of the
   * run reads the user's working memory (and may update it) and the messages
   * recalled from the user's other threads; the task and the answer are
   * remembered when the run settles (docs/memory.md).
   */
  memory?: MemoryOptions;
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
}

/**
 * Options of one run: its ids (`runId` becomes the run's id on every event
 * and in its state) and the conversation it continues.
 */
export interface OrchestratorRunOptions extends RunIds, SessionRunOptions {
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
  /** Limits of this run, over the orchestrator's `limits.budget`. */
  budget?: RunBudgetLimits;
  /** This run's answer is an object of this schema, over the orchestrator's `output`. */
  output?: Schema;
}

/** Options of {@link Orchestrator.resume}. */
export interface ResumeOptions {
  signal?: AbortSignal;
  /**
   * The explicit mode to resume in. Default: the mode the run was started in
   * (`mode: 'app'`), which its state keeps: a paused dedicated mode resumes
   * in it without this option.
   */
  mode?: string;
  /** The resumed run's answer is an object of this schema, over the orchestrator's `output`. */
  output?: Schema;
  /**
   * The session the run was started on: the resume appends the request and
   * its answer when it ends with one (the history is the one saved in the state).
   */
  session?: Session;
  /** Limits of the resumed run, over the orchestrator's `limits.budget`; what the run spent before counts. */
  budget?: RunBudgetLimits;
  /**
   * Low-level: answers to the saved state's pending interrupts, by interrupt
   * id, over those recorded with `state.approve` / `state.reject`: an
   * approval's answer goes to `safety.approvals` (the call is still scanned first),
   * others to the `safety.interrupts` bus. Questions left unanswered are asked again
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
  /** Each step of the plan, in plan order, as it ended (or stood when the run stopped). */
  steps: StepResult[];
  verification?: Verification;
  /** Re-plans made. */
  revisions: number;
  /** The agent that answered, for routed and explicit agent runs. */
  agent?: string;
  /** Summed over every model call of the run. */
  usage: Usage;
  /** Checkpoint saves made and refused; present when `checkpoints` is configured. */
  checkpoints?: CheckpointReport;
  /**
   * Why the run did not succeed (docs/results.md): what stopped a `partial`
   * run (e.g. a `RunError` of kind `budget`), what a `failed` one failed
   * with (the model's failure, an `AbortError`, a `CheckpointError`, …).
   */
  error?: TandemError;
  /** The answer as an object of the output schema (then `output` is its JSON); absent without one. */
  object?: unknown;
  /**
   * With a `session` (docs/sessions.md): the thread and the messages this run
   * appended, and the `SessionError` of an append that failed.
   */
  session?: SessionReport;
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
