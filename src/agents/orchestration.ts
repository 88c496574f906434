/**
 * One orchestration run: the flow from classification to the final answer,
 * recording its state as it goes so it can be resumed.
 * @module
 */
import { ConfigError, RunError } from '../core/errors.js';
import type { EventBus } from '../core/event-bus.js';
import type { Emitter, PlanStepView } from '../core/events.js';
import type { Runtime } from '../core/seams.js';
import { emptyUsage } from '../core/usage.js';
import type { ModelInvoker } from '../model/invoke.js';
import type { ToolRegistry } from '../tools/registry.js';
import { classifyTask } from './classify-task.js';
import { dispatchSteps, type StepRecord } from './dispatch.js';
import type { Executor } from './executor.js';
import { type FinalizeReducer, finalizeAnswer } from './finalizer.js';
import {
  DEFAULT_SKILL_MODES,
  type OrchestratorOptions,
  type OrchestratorResult,
} from './orchestrator-options.js';
import { type Plan, type PlanStep, planSchema } from './plan.js';
import type { Planner, RevisionContext } from './planner.js';
import type { RunRecorder } from './run-recorder.js';
import { runStepLadder, stepView } from './step-runner.js';
import { MemoryTodoStore, renderTodo, SandboxTodoStore, type TodoStore, todoProgress } from './todo.js';
import { type Verification, verifyResults } from './verifier.js';

/** The orchestrator's collaborators, built once per orchestrator. */
export interface OrchestrationParts {
  options: OrchestratorOptions;
  runtime: Runtime;
  planner: Planner;
  executor: Executor;
  takeover: Executor;
  verifier?: ModelInvoker;
  finalizer: { invoker?: ModelInvoker; reducer?: FinalizeReducer };
  tools: ToolRegistry;
}

/** Runs (or resumes) one orchestration on `bus`, recording into `recorder`. */
export class Orchestration {
  private readonly todo: TodoStore;

  constructor(
    private readonly parts: OrchestrationParts,
    private readonly bus: EventBus,
    private readonly recorder: RunRecorder,
    private readonly signal: AbortSignal,
  ) {
    const { options } = parts;
    this.todo =
      options.todoStore ?? (options.sandbox ? new SandboxTodoStore(options.sandbox) : new MemoryTodoStore());
  }

  /** From the start, or from wherever the recorded state stopped. */
  async run(mode?: string): Promise<OrchestratorResult> {
    const state = this.recorder.state;
    const task = state.task;
    const guardrails = this.parts.options.guardrails;
    if (guardrails && state.phase === 'classifying') {
      const verdict = await guardrails.checkInput(task, { emit: this.bus, signal: this.signal });
      if (verdict.blocked)
        throw new RunError('guardrail', `Input blocked: ${verdict.reason ?? 'policy violation'}`);
    }
    if (mode) return this.explicit(task, mode);
    if (!state.complexity) {
      const routed = await this.route(task);
      if (routed) return routed;
      const classification = await stage(this.bus, 'classifying', () =>
        classifyTask(task, this.parts.options.classify ?? 'auto', this.parts.planner, {
          signal: this.signal,
          emit: this.bus,
        }),
      );
      this.bus.emit('routing', classification.routing);
      const complexity = classification.complexity;
      await this.recorder.phase(complexity === 'simple' ? 'executing' : 'planning', {
        complexity,
        routing: classification.routing,
      });
    }
    return this.recorder.state.complexity === 'simple' ? this.simple(task) : this.planned(task);
  }

  private async route(task: string): Promise<OrchestratorResult | undefined> {
    const { router, handoffs } = this.parts.options;
    if (!router || !handoffs) return undefined;
    const routing = await stage(this.bus, 'routing', () =>
      router.route(task, { signal: this.signal, emit: this.bus }),
    );
    this.bus.emit('routing', routing);
    if (routing.agent === router.defaultAgent) return undefined;
    return this.agent(task, routing.agent);
  }

  /** An explicit mode: a named agent, or a dedicated skill mode (no model turn). */
  private async explicit(task: string, mode: string): Promise<OrchestratorResult> {
    const { skills, handoffs } = this.parts.options;
    const skillMode = (this.parts.options.skillModes ?? DEFAULT_SKILL_MODES)[mode];
    if (skillMode && skills) {
      this.bus.emit('routing', {
        agent: mode,
        confidence: 1,
        reason: 'Explicit mode selection',
        method: 'explicit',
      });
      const output = await stage(this.bus, 'skill', () =>
        skills.invokeDirect(
          skillMode.skill,
          { [skillMode.param]: task },
          { signal: this.signal, emit: this.bus, sandbox: this.parts.options.sandbox },
        ),
      );
      const text = typeof output === 'string' ? output : JSON.stringify(output, null, 2);
      return this.finish({
        output: text,
        status: 'success',
        complexity: 'simple',
        steps: [],
        revisions: 0,
        usage: emptyUsage(),
      });
    }
    this.bus.emit('routing', {
      agent: mode,
      confidence: 1,
      reason: 'Explicit mode selection',
      method: 'explicit',
    });
    if (!handoffs) {
      throw new ConfigError(
        `Unknown mode "${mode}": not a skill mode and no handoffs (agents) are configured`,
      );
    }
    return this.agent(task, mode);
  }

  private async agent(task: string, agent: string): Promise<OrchestratorResult> {
    const handoffs = this.parts.options.handoffs!;
    const result = await handoffs.run(agent, task, { signal: this.signal, emit: this.bus });
    return this.finish({
      output: result.output,
      status: result.result.status,
      complexity: 'simple',
      steps: [],
      revisions: 0,
      agent: result.agent,
      usage: emptyUsage(),
    });
  }

  private async simple(task: string): Promise<OrchestratorResult> {
    const saved = this.recorder.state.conversations.main;
    const result = await stage(this.bus, 'executing', () =>
      this.parts.executor.execute(saved ? [] : task, {
        signal: this.signal,
        history: saved?.messages,
        emit: this.bus.scope({ agent: 'executor' }),
        onCheckpoint: (messages) => this.recorder.conversation('main', { mode: 'direct' }, messages),
      }),
    );
    this.recorder.endConversation('main');
    return this.finish({
      output: result.output,
      status: result.status,
      complexity: 'simple',
      steps: [],
      revisions: 0,
      usage: emptyUsage(),
    });
  }

  private async planned(task: string): Promise<OrchestratorResult> {
    const { bus, recorder, signal, parts } = this;
    const plannerEmit = bus.scope({ agent: 'planner' });
    const toolHints = parts.tools.specs().map((t) => ({ name: t.name, description: t.description }));
    const state = recorder.state;
    let plan: Plan;
    const records = new Map<string, StepRecord>();
    let order: StepRecord[];
    if (state.plan) {
      plan = planSchema.parse(state.plan);
      for (const saved of state.steps) {
        const step = saved.step as unknown as PlanStep;
        // A step that was running when the state was saved continues from its saved conversation.
        const status = saved.status === 'running' ? 'pending' : saved.status;
        records.set(step.id, {
          step,
          status,
          output: saved.output,
          error: saved.error,
          attempts: saved.attempts,
        });
      }
      order = plan.steps.map((step) => records.get(step.id) ?? this.fresh(step, records));
    } else {
      plan = await stage(bus, 'planning', () =>
        parts.planner.createPlan(task, '', { signal, emit: plannerEmit, tools: toolHints }),
      );
      order = this.adopt(plan, records);
      recorder.track(plan, records, order);
      await recorder.phase('dispatching');
    }
    recorder.track(plan, records, order);
    bus.emit('plan_overview', { title: plan.title, summary: plan.summary, steps: order.map(stepView) });
    await this.writeTodo(plan, order);

    let verification = state.verification as Verification | undefined;
    let revisions = state.revisions;
    while (state.phase !== 'finalizing') {
      await this.dispatch(plan, records, order);
      if (!parts.verifier) break;
      await recorder.phase('verifying');
      const judged = await stage(bus, 'verifying', () =>
        verifyResults({
          invoker: parts.verifier!,
          task,
          steps: order.map((r) => ({
            id: r.step.id,
            status: r.status,
            output: r.status === 'completed' ? r.output : (r.error ?? ''),
          })),
          signal,
          emit: bus.scope({ agent: 'verifier' }),
        }),
      );
      verification = judged;
      if (judged.verdict !== 'fail' || revisions >= (parts.options.maxReplans ?? 1)) break;
      revisions++;
      const context = revisionContext(task, order, judged.reason);
      plan = await stage(bus, 'replanning', () =>
        parts.planner.revise(plan, context, { signal, emit: plannerEmit, tools: toolHints }),
      );
      order = this.adopt(plan, records);
      recorder.track(plan, records, order);
      await recorder.phase('dispatching', { revisions, verification: judged });
      bus.emit('plan_revised', { reason: judged.reason, revision: revisions, steps: order.map(stepView) });
      await this.writeTodo(plan, order);
    }

    await recorder.phase('finalizing', verification ? { revisions, verification } : { revisions });
    const finalPlan = plan;
    const steps = order;
    const final = await stage(bus, 'finalizing', () =>
      finalizeAnswer(
        { task, plan: finalPlan, steps },
        { ...parts.finalizer, signal, emit: bus.scope({ agent: 'finalizer' }) },
      ),
    );
    const completed = steps.filter((r) => r.status === 'completed').length;
    const status =
      completed === steps.length && verification?.verdict !== 'fail'
        ? 'success'
        : completed
          ? 'partial'
          : 'failed';
    return this.finish({
      output: final.output,
      status,
      complexity: 'complex',
      plan,
      steps,
      verification,
      revisions,
      usage: emptyUsage(),
    });
  }

  private dispatch(plan: Plan, records: Map<string, StepRecord>, order: StepRecord[]): Promise<void> {
    const { bus, recorder, signal, parts } = this;
    const { options } = parts;
    return stage(bus, 'executing', () =>
      dispatchSteps(order, records, {
        concurrency: options.stepConcurrency ?? 1,
        onSkip: (record, reason) => {
          bus.scope({ stepId: record.step.id }).emit('plan_step_failed', {
            error: { kind: 'skipped', message: reason },
            willRetry: false,
            skipped: true,
          });
          void recorder.save();
        },
        runStep: async (record) => {
          const id = record.step.id;
          const resume = recorder.state.conversations[id];
          await this.writeTodo(plan, order);
          await recorder.save();
          await runStepLadder(
            record,
            {
              plan,
              records,
              executor: parts.executor,
              takeover: parts.takeover,
              planner: parts.planner,
              clock: parts.runtime.clock,
              stepTimeoutMs: options.stepTimeoutMs ?? 180_000,
              maxFindingChars: options.maxFindingChars ?? 2_000,
              instructions: options.instructions,
              todo: () => this.todo.read(),
              emit: bus.scope({ agent: 'executor' }),
              onConversation: (conversation, messages) => recorder.conversation(id, conversation, messages),
              resume,
            },
            signal,
          );
          recorder.endConversation(id);
          if (record.status === 'completed') {
            bus.scope({ stepId: id }).emit('plan_step_completed', {
              output: record.output.slice(0, 200),
              completed: order.filter((r) => r.status === 'completed').length,
              total: order.length,
            });
          }
          await this.writeTodo(plan, order);
          await recorder.save();
        },
      }),
    );
  }

  /** Scans the answer (the transcript keeps what the scan returns), records it, and returns the result. */
  private async finish(result: OrchestratorResult): Promise<OrchestratorResult> {
    const guardrails = this.parts.options.guardrails;
    if (guardrails) {
      const verdict = await guardrails.checkOutput(result.output, { emit: this.bus, signal: this.signal });
      result.output = verdict.text;
    }
    await this.recorder.phase('done', { status: 'completed', output: result.output });
    return result;
  }

  /**
   * Records for a new or revised plan's steps: a completed step keeps its
   * result and is not run again; failed, skipped and new steps are pending.
   * (A resumed run restores its records as saved instead.)
   */
  private adopt(plan: Plan, records: Map<string, StepRecord>): StepRecord[] {
    return plan.steps.map((step) => {
      const existing = records.get(step.id);
      return existing?.status === 'completed' ? existing : this.fresh(step, records);
    });
  }

  private fresh(step: PlanStep, records: Map<string, StepRecord>): StepRecord {
    const record: StepRecord = { step, status: 'pending', output: '', attempts: 0 };
    records.set(step.id, record);
    return record;
  }

  private async writeTodo(plan: Plan, order: readonly StepRecord[]): Promise<void> {
    const views: PlanStepView[] = order.map(stepView);
    const content = renderTodo(plan.title, views, new Map(order.map((r) => [r.step.id, r.step.tools])));
    try {
      await this.todo.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    this.bus.emit('todo_update', { content, ...todoProgress(content) });
  }
}

function revisionContext(task: string, order: readonly StepRecord[], reason: string): RevisionContext {
  return {
    reason: `The verifier judged the result a FAIL: ${reason}`,
    task,
    completed: order
      .filter((r) => r.status === 'completed')
      .map((r) => ({ id: r.step.id, output: r.output })),
    failed: order
      .filter((r) => r.status !== 'completed')
      .map((r) => ({ id: r.step.id, error: r.error ?? `Step ${r.status}.` })),
  };
}

/** Emits `stage` running, then completed or failed, around `fn`. */
export async function stage<T>(emit: Emitter, name: string, fn: () => Promise<T>): Promise<T> {
  emit.emit('stage', { name, status: 'running' });
  try {
    const value = await fn();
    emit.emit('stage', { name, status: 'completed' });
    return value;
  } catch (error) {
    emit.emit('stage', {
      name,
      status: 'failed',
      detail: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}
