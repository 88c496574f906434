/**
 * The Planner: the planner model's side of a run. It decides whether a task
 * needs a plan, writes and revises plans (validated DAGs), improves a failed
 * step's instructions and builds the prompts for taking a step over. It runs
 * nothing itself: the orchestrator executes steps.
 *
 * Every call puts its instructions in `request.system` and the task in a user
 * message `Task: <task>`, goes through a {@link ModelInvoker} with
 * `stream: false`, and re-asks on an unusable reply (see `generateObject`).
 * @module
 */
import { z } from 'zod/v4';
import { ConfigError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import { userMessage } from '../core/messages.js';
import { type Clock, type Runtime, resolveRuntime } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { directInvoker, type ModelInvoker } from '../model/invoke.js';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_RETRY_DELAYS_MS,
  type GenerateObjectResult,
  generateObject,
  generateWithRetry,
  StructuredOutputError,
} from '../model/json.js';
import { preview } from '../model/json-candidates.js';
import type { ChatModel, ModelRequest } from '../model/types.js';
import {
  type Plan,
  PlanError,
  type PlanErrorKind,
  type PlanStep,
  planDraftSchema,
  planProblems,
  planSchema,
  singleStepPlan,
} from './plan.js';
import {
  defaultPlannerPrompts,
  type PlannerPrompts,
  type StepOutcome,
  type ToolHint,
} from './planner-prompts.js';

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
  /** Ask the provider for JSON output (`responseFormat: {type: 'json'}`) on decide / createPlan / revise. Default false. */
  jsonMode?: boolean;
}

/** Per-call options of every Planner method. */
export interface PlannerCallOptions {
  signal?: AbortSignal;
  /** Receives `retry` events. */
  emit?: Emitter;
  /** Added into in place with the call's usage (failed attempts included), e.g. the run's total. */
  usage?: Usage;
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

const decisionSchema = z.object({
  needsPlan: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: '"needsPlan" must be true or false' }),
  ),
  reasoning: z.string().default('No reasoning provided'),
});

const FAILURE_TEXT: Record<PlanErrorKind, string> = {
  decision_failed: 'Could not decide whether the task needs a plan',
  invalid_plan: 'The planner did not produce a valid plan',
  model_failed: 'The planner model failed',
  enhance_failed: 'Could not get enhanced step instructions',
};

/**
 * The planner.
 *
 * ```ts
 * const planner = new Planner({ model });
 * const { needsPlan } = await planner.decide(task, { signal });
 * const plan = needsPlan ? await planner.createPlan(task, context, { signal, emit }) : undefined;
 * ```
 */
export class Planner {
  readonly invoker: ModelInvoker;
  readonly prompts: PlannerPrompts;
  /** Usage of every call this planner made (failed attempts included), added in place. */
  readonly usage: Usage = emptyUsage();
  private readonly clock: Clock;
  private readonly attempts: number;
  private readonly delays: readonly number[];
  private readonly fallbackToSingleStep: boolean;
  private readonly jsonMode: boolean;

  constructor(options: PlannerOptions) {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new ConfigError(`Planner: attempts must be a positive integer, got ${attempts}`);
    }
    this.invoker = options.invoker ?? directInvoker(options.model);
    this.prompts = { ...defaultPlannerPrompts, ...options.prompts };
    this.clock = resolveRuntime(options.runtime).clock;
    this.attempts = attempts;
    this.delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.fallbackToSingleStep = options.fallbackToSingleStep ?? false;
    this.jsonMode = options.jsonMode ?? false;
  }

  /**
   * Whether `task` needs a plan: one planner call replying
   * `{needsPlan, reasoning}` (a missing reasoning becomes "No reasoning provided").
   * @throws {PlanError} `decision_failed` after the last attempt.
   */
  async decide(task: string, options: PlannerCallOptions = {}): Promise<PlanningDecision> {
    const result = await this.generateJSON(
      decisionSchema,
      this.prompts.decide,
      task,
      options,
      'decision_failed',
    );
    return { ...result.object, usage: result.usage };
  }

  /**
   * A validated plan for `task`. `context` (conversation, workspace, findings)
   * goes into the system prompt. An invalid plan is re-asked with the
   * validation errors.
   * @throws {PlanError} `invalid_plan` or `model_failed`, unless `fallbackToSingleStep` is on.
   */
  async createPlan(task: string, context?: string, options: PlanCallOptions = {}): Promise<Plan> {
    const system = this.prompts.createPlan({ context, tools: options.tools });
    try {
      return (await this.generateJSON(planSchema, system, task, options, 'invalid_plan')).object;
    } catch (error) {
      if (this.fallbackToSingleStep && error instanceof PlanError) return singleStepPlan(task, error.message);
      throw error;
    }
  }

  /**
   * Improved instructions for a step whose execution failed, as plain text
   * (an empty reply is re-asked). `output` and `error` are clipped in the prompt.
   * @throws {PlanError} `enhance_failed`.
   */
  async enhanceStepInstructions(
    step: PlanStep,
    error: string,
    output: string,
    options: PlannerCallOptions = {},
  ): Promise<string> {
    const system = this.prompts.enhance({ step, error, output });
    const result = await this.run('enhance_failed', options, (usage) =>
      generateWithRetry({
        ...this.callOptions(this.request(system, step.description, false), options, usage),
        parse: (text) => {
          const trimmed = text.trim();
          if (!trimmed) throw new StructuredOutputError('empty_reply', 'The reply was empty.', { text });
          return trimmed;
        },
        reask: () => 'Your previous reply was empty. Reply with the improved instructions as plain text.',
      }),
    );
    return result.object;
  }

  /**
   * The prompts for the planner model to execute a failed step itself
   * (takeover). The orchestrator runs them through an Executor with the
   * planner model and the step's tools: `system` as the system prompt, `user`
   * as the task.
   */
  takeoverPrompt(step: PlanStep, error: string, context?: string): { system: string; user: string } {
    return {
      system: this.prompts.takeover({ step, error, context }),
      user: `Execute step: ${step.description}`,
    };
  }

  /**
   * A revised plan. Completed steps are kept unchanged (same ids, first, in
   * their old order) and are not re-run; the model writes only the steps that
   * remain, which may depend on completed ids, keep or replace failed steps,
   * and add new ones. A reply that redefines a completed id with a different
   * description, or breaks the DAG rules, is re-asked with the error.
   * @throws {PlanError} `invalid_plan` or `model_failed`.
   * @throws {ConfigError} when a completed id is not a step of `plan`.
   */
  async revise(plan: Plan, revision: string | RevisionContext, options: PlanCallOptions = {}): Promise<Plan> {
    const context = typeof revision === 'string' ? { reason: revision } : revision;
    const ids = new Set(plan.steps.map((s) => s.id));
    for (const outcome of context.completed ?? []) {
      if (!ids.has(outcome.id))
        throw new ConfigError(`revise: completed step "${outcome.id}" is not in the plan`);
    }
    const completedIds = new Set((context.completed ?? []).map((o) => o.id));
    const kept = plan.steps.filter((s) => completedIds.has(s.id));
    const system = this.prompts.revise({
      plan,
      reason: context.reason,
      completed: context.completed ?? [],
      failed: context.failed ?? [],
      tools: options.tools,
    });
    const task = context.task ?? (plan.summary || plan.title);
    return (await this.generateJSON(revisionSchema(kept), system, task, options, 'invalid_plan')).object;
  }

  private generateJSON<T>(
    schema: z.ZodType<T>,
    system: string,
    task: string,
    options: PlannerCallOptions,
    kind: PlanErrorKind,
  ): Promise<GenerateObjectResult<T>> {
    const request = this.request(system, task, this.jsonMode);
    return this.run(kind, options, (usage) =>
      generateObject({ ...this.callOptions(request, options, usage), schema, expect: 'object' }),
    );
  }

  /** Runs one operation, books its usage everywhere (also on failure) and maps failures to {@link PlanError}. */
  private async run<T>(
    kind: PlanErrorKind,
    options: PlannerCallOptions,
    call: (usage: Usage) => Promise<T>,
  ): Promise<T> {
    const usage = emptyUsage();
    try {
      return await call(usage);
    } catch (error) {
      if (!(error instanceof StructuredOutputError)) throw error;
      const failedKind = kind === 'invalid_plan' && error.kind === 'model_failed' ? 'model_failed' : kind;
      // The reply itself, cut short, so a log line alone shows what the model said (seed: first 200 chars).
      const reply = error.text?.trim() ? ` Response was: ${preview(error.text)}` : '';
      throw new PlanError(
        failedKind,
        `${FAILURE_TEXT[failedKind]}: ${error.message.replace(/\.?$/, '.')}${reply}`,
        {
          cause: error,
          attempts: error.attempts,
          lastReply: error.text,
          usage: error.usage,
        },
      );
    } finally {
      addUsage(this.usage, usage);
      if (options.usage) addUsage(options.usage, usage);
      // One `usage` event per operation keeps run totals (summed from events) complete.
      options.emit?.emit('usage', { model: this.invoker.id, usage, total: { ...this.usage } });
    }
  }

  private callOptions(request: ModelRequest, options: PlannerCallOptions, usage: Usage) {
    return {
      invoker: this.invoker,
      request,
      attempts: this.attempts,
      delays: this.delays,
      clock: this.clock,
      signal: options.signal,
      emit: options.emit,
      usage,
    };
  }

  private request(system: string, task: string, json: boolean): ModelRequest {
    const request: ModelRequest = { system, messages: [userMessage(`Task: ${task}`)] };
    if (json) request.responseFormat = { type: 'json' };
    return request;
  }
}

/** The schema of a revision reply: the remaining steps, merged after the completed ones, then DAG-checked. */
function revisionSchema(completed: readonly PlanStep[]): z.ZodType<Plan> {
  const done = new Map(completed.map((s) => [s.id, s]));
  return planDraftSchema.transform((draft, ctx) => {
    const steps = [...completed];
    for (const step of draft.steps) {
      const old = done.get(step.id);
      if (!old) steps.push(step);
      else if (old.description.trim() !== step.description.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps'],
          message: `Step "${step.id}" is already completed and cannot be redefined: leave it out, or give the new step another id.`,
        });
      }
    }
    for (const message of planProblems(steps)) ctx.addIssue({ code: 'custom', path: ['steps'], message });
    return { title: draft.title, summary: draft.summary, steps };
  });
}
