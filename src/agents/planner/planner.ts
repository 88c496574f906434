/**
 * The Planner: the planner model's side of a run. It decides whether a task
 * needs a plan, writes and revises plans (validated DAGs), improves a failed
 * step's instructions and builds the prompts for taking a step over. It runs
 * nothing itself: the orchestrator executes steps. How it calls the model
 * (re-asks, usage, errors) is in `model-calls.ts`.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import { contentText, type UserContent } from '../../core/run-input.js';
import { resolveRuntime } from '../../core/seams.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import { DEFAULT_ATTEMPTS, DEFAULT_RETRY_DELAYS_MS } from '../../model/json.js';
import { zodBuilt } from '../../model/lazy-zod.js';
import { directInvoker } from '../../model/resilience/resilient-invoker.js';
import { PlannerCalls } from './model-calls.js';
import type {
  PlanCallOptions,
  PlannerCallOptions,
  PlannerOptions,
  PlanningDecision,
  RevisionContext,
} from './options.js';
import { type Plan, type PlanStep, singleStepPlan } from './plan.js';
import { PlanError } from './plan-error.js';
import { planSchema, revisionSchema } from './plan-schema.js';
import { defaultPlannerPrompts, type PlannerPrompts } from './prompts.js';

const decisionSchema = zodBuilt((z) =>
  z.object({
    needsPlan: z.preprocess(
      (v) => (v === 'true' ? true : v === 'false' ? false : v),
      z.boolean({ error: '"needsPlan" must be true or false' }),
    ),
    reasoning: z.string().default('No reasoning provided'),
  }),
);

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
  private readonly calls: PlannerCalls;
  private readonly fallbackToSingleStep: boolean;

  constructor(options: PlannerOptions) {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new ConfigError(`Planner: attempts must be a positive integer, got ${attempts}`);
    }
    this.invoker = options.invoker ?? directInvoker(options.model);
    this.prompts = { ...defaultPlannerPrompts, ...options.prompts };
    this.calls = new PlannerCalls({
      invoker: this.invoker,
      usage: this.usage,
      clock: resolveRuntime(options.runtime).clock,
      attempts,
      delays: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      jsonMode: options.jsonMode,
    });
    this.fallbackToSingleStep = options.fallbackToSingleStep ?? false;
  }

  /**
   * Whether `task` (text, or parts with images and files; `options.history`
   * the conversation it continues) needs a plan: one planner call replying
   * `{needsPlan, reasoning}` (a missing reasoning becomes "No reasoning provided").
   * @throws {PlanError} `decision_failed` after the last attempt.
   */
  async decide(task: UserContent, options: PlannerCallOptions = {}): Promise<PlanningDecision> {
    const operation = { system: this.prompts.decide, task, kind: 'decision_failed' } as const;
    const result = await this.calls.json(await decisionSchema.load(), operation, options);
    return { ...result.object, usage: result.usage };
  }

  /**
   * A validated plan for `task` (text, or parts with images and files).
   * `options.history`, the conversation the task continues, goes to the model
   * before it; `context` (workspace, findings) goes into the system prompt.
   * An invalid plan is re-asked with the validation errors.
   * @throws {PlanError} `invalid_plan` or `model_failed`, unless `fallbackToSingleStep` is on.
   */
  async createPlan(task: UserContent, context?: string, options: PlanCallOptions = {}): Promise<Plan> {
    const system = this.prompts.createPlan({ context, tools: options.tools });
    try {
      const schema = await planSchema.load();
      return (await this.calls.json(schema, { system, task, kind: 'invalid_plan' }, options)).object;
    } catch (error) {
      if (this.fallbackToSingleStep && error instanceof PlanError)
        return singleStepPlan(contentText(task), error.message);
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
    return this.calls.text(
      {
        system,
        task: step.description,
        kind: 'enhance_failed',
        reask: 'Your previous reply was empty. Reply with the improved instructions as plain text.',
      },
      options,
    );
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
    const schema = await revisionSchema(kept);
    return (await this.calls.json(schema, { system, task, kind: 'invalid_plan' }, options)).object;
  }
}
