/**
 * The Orchestrator: classify → (simple) one Executor run, or (complex) plan →
 * dispatch steps → verify → re-plan (bounded) → finalize, emitting typed
 * events throughout.
 * @module
 */
import { EventBus } from '../core/event-bus.js';
import type { Emitter, PlanStepView } from '../core/events.js';
import type { Sandbox } from '../core/sandbox.js';
import { type Runtime, resolveRuntime } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { directInvoker, type ModelInvoker } from '../model/invoke.js';
import type { ChatModel } from '../model/types.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolGate } from '../tools/runner.js';
import type { Tool } from '../tools/types.js';
import { type ClassifyMode, classifyTask } from './classify-task.js';
import { dispatchSteps, type StepRecord } from './dispatch.js';
import { Executor } from './executor.js';
import type { ExecutorOptions } from './executor-options.js';
import { type FinalizeReducer, finalizeAnswer } from './finalizer.js';
import type { Plan } from './plan.js';
import { Planner, type RevisionContext } from './planner.js';
import { Run } from './run.js';
import { runStepLadder, stepView } from './step-runner.js';
import { MemoryTodoStore, renderTodo, SandboxTodoStore, type TodoStore, todoProgress } from './todo.js';
import { type Verification, verifyResults } from './verifier.js';

/** Options of an {@link Orchestrator}. Defaults are the seeds'. */
export interface OrchestratorOptions {
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
  /** Cap per dependency finding in a step's prompt. Default 2000 chars. */
  maxFindingChars?: number;
  /** Where the checklist lives. Default: a file in `sandbox` when given, else memory. */
  todoStore?: TodoStore;
  /** Given to tools; holds the checklist file. */
  sandbox?: Sandbox;
  /** Approvals and guardrails before each tool call. */
  gate?: ToolGate;
  /** Wraps each model for calling (retry, fallback). Default: direct calls. */
  invoker?: (model: ChatModel) => ModelInvoker;
  /** Options for the executors (iterations, tier, streaming, …). */
  executorOptions?: Partial<Omit<ExecutorOptions, 'model' | 'invoker' | 'tools' | 'runtime'>>;
  runtime?: Partial<Runtime>;
}

/** Options of one run. */
export interface OrchestratorRunOptions {
  signal?: AbortSignal;
}

/** The outcome of a run. */
export interface OrchestratorResult {
  output: string;
  /** `success` only when every step completed; never `success` when a step failed. */
  status: 'success' | 'partial' | 'failed';
  complexity: 'simple' | 'complex';
  plan?: Plan;
  steps: StepRecord[];
  verification?: Verification;
  /** Re-plans made. */
  revisions: number;
  /** Summed over every model call of the run. */
  usage: Usage;
}

/** Drives a whole run. See the module docs for the lifecycle. */
export class Orchestrator {
  private readonly options: OrchestratorOptions;
  private readonly runtime: Runtime;
  private readonly planner: Planner;
  private readonly executor: Executor;
  private readonly takeover: Executor;
  private readonly verifier?: ModelInvoker;
  private readonly finalizer: { invoker?: ModelInvoker; reducer?: FinalizeReducer };
  private readonly tools: ToolRegistry;

  constructor(options: OrchestratorOptions) {
    this.options = options;
    this.runtime = resolveRuntime(options.runtime);
    const invoke = options.invoker ?? directInvoker;
    const tools =
      options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
    this.tools = tools;
    const common = {
      ...options.executorOptions,
      tools,
      runtime: this.runtime,
      sandbox: options.sandbox,
      gate: options.gate,
    };
    this.planner = new Planner({
      model: options.planner,
      invoker: invoke(options.planner),
      runtime: this.runtime,
    });
    this.executor = new Executor({
      name: 'executor',
      ...common,
      model: options.executor,
      invoker: invoke(options.executor),
      instructions: options.instructions,
    });
    this.takeover = new Executor({
      name: 'planner',
      ...common,
      model: options.planner,
      invoker: invoke(options.planner),
    });
    const verifier = options.verifier === undefined ? options.executor : options.verifier;
    if (verifier) this.verifier = invoke(verifier);
    const finalizer = options.finalizer ?? options.executor;
    this.finalizer =
      typeof finalizer === 'function' ? { reducer: finalizer } : { invoker: invoke(finalizer) };
  }

  /** Starts a run. Consume it with `for await`, `run.on(type, fn)` or `await run.result`. */
  run(task: string, options: OrchestratorRunOptions = {}): Run<OrchestratorResult> {
    const bus = new EventBus({ runId: this.runtime.ids.next('run'), clock: this.runtime.clock });
    const usage = emptyUsage();
    bus.on('usage', (e) => addUsage(usage, e.usage));
    return new Run({
      bus,
      signal: options.signal,
      usage: () => usage,
      body: async (signal) => {
        bus.emit('run_started', { input: task });
        const result = await this.execute(task, bus, signal);
        result.usage = { ...usage };
        return result;
      },
      complete: (r) => ({ output: r.output, status: r.status, usage: r.usage }),
    });
  }

  private async execute(task: string, bus: EventBus, signal: AbortSignal): Promise<OrchestratorResult> {
    const classification = await stage(bus, 'classifying', () =>
      classifyTask(task, this.options.classify ?? 'auto', this.planner, { signal, emit: bus }),
    );
    bus.emit('routing', classification.routing);
    if (classification.complexity === 'simple') {
      const result = await stage(bus, 'executing', () =>
        this.executor.execute(task, { signal, emit: bus.scope({ agent: 'executor' }) }),
      );
      return {
        output: result.output,
        status: result.status,
        complexity: 'simple',
        steps: [],
        revisions: 0,
        usage: emptyUsage(),
      };
    }
    return this.executePlan(task, bus, signal);
  }

  private async executePlan(task: string, bus: EventBus, signal: AbortSignal): Promise<OrchestratorResult> {
    const plannerEmit = bus.scope({ agent: 'planner' });
    const toolHints = this.tools.specs().map((t) => ({ name: t.name, description: t.description }));
    let plan = await stage(bus, 'planning', () =>
      this.planner.createPlan(task, '', { signal, emit: plannerEmit, tools: toolHints }),
    );
    const records = new Map<string, StepRecord>();
    let order = this.adopt(plan, records);
    bus.emit('plan_overview', { title: plan.title, summary: plan.summary, steps: order.map(stepView) });
    const todo =
      this.options.todoStore ??
      (this.options.sandbox ? new SandboxTodoStore(this.options.sandbox) : new MemoryTodoStore());
    const updateTodo = () => this.writeTodo(todo, plan, order, bus);
    await updateTodo();

    let verification: Verification | undefined;
    let revisions = 0;
    for (;;) {
      const current = plan;
      await stage(bus, 'executing', () =>
        dispatchSteps(order, records, {
          concurrency: this.options.stepConcurrency ?? 1,
          onSkip: (record, reason) =>
            bus.scope({ stepId: record.step.id }).emit('plan_step_failed', {
              error: { kind: 'skipped', message: reason },
              willRetry: false,
              skipped: true,
            }),
          runStep: async (record) => {
            await updateTodo();
            await runStepLadder(
              record,
              {
                plan: current,
                records,
                executor: this.executor,
                takeover: this.takeover,
                planner: this.planner,
                clock: this.runtime.clock,
                stepTimeoutMs: this.options.stepTimeoutMs ?? 180_000,
                maxFindingChars: this.options.maxFindingChars ?? 2_000,
                instructions: this.options.instructions,
                todo: () => todo.read(),
                emit: bus.scope({ agent: 'executor' }),
              },
              signal,
            );
            if (record.status === 'completed') {
              const done = order.filter((r) => r.status === 'completed').length;
              bus.scope({ stepId: record.step.id }).emit('plan_step_completed', {
                output: record.output.slice(0, 200),
                completed: done,
                total: order.length,
              });
            }
            await updateTodo();
          },
        }),
      );
      if (!this.verifier) break;
      verification = await stage(bus, 'verifying', () =>
        verifyResults({
          invoker: this.verifier!,
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
      if (verification.verdict !== 'fail' || revisions >= (this.options.maxReplans ?? 1)) break;
      revisions++;
      const context = revisionContext(task, order, verification.reason);
      plan = await stage(bus, 'replanning', () =>
        this.planner.revise(plan, context, { signal, emit: plannerEmit, tools: toolHints }),
      );
      order = this.adopt(plan, records);
      bus.emit('plan_revised', {
        reason: verification.reason,
        revision: revisions,
        steps: order.map(stepView),
      });
      await updateTodo();
    }

    const finalPlan = plan;
    const steps = order;
    const final = await stage(bus, 'finalizing', () =>
      finalizeAnswer(
        { task, plan: finalPlan, steps },
        { ...this.finalizer, signal, emit: bus.scope({ agent: 'finalizer' }) },
      ),
    );
    const completed = steps.filter((r) => r.status === 'completed').length;
    const status =
      completed === steps.length && verification?.verdict !== 'fail'
        ? 'success'
        : completed
          ? 'partial'
          : 'failed';
    return {
      output: final.output,
      status,
      complexity: 'complex',
      plan,
      steps,
      verification,
      revisions,
      usage: emptyUsage(),
    };
  }

  /**
   * Records for a (revised) plan's steps: a completed step keeps its result
   * and is not run again; failed, skipped and new steps are pending.
   */
  private adopt(plan: Plan, records: Map<string, StepRecord>): StepRecord[] {
    return plan.steps.map((step) => {
      const existing = records.get(step.id);
      if (existing?.status === 'completed') return existing;
      const record: StepRecord = { step, status: 'pending', output: '', attempts: 0 };
      records.set(step.id, record);
      return record;
    });
  }

  private async writeTodo(
    store: TodoStore,
    plan: Plan,
    order: readonly StepRecord[],
    emit: Emitter,
  ): Promise<void> {
    const views: PlanStepView[] = order.map(stepView);
    const content = renderTodo(plan.title, views, new Map(order.map((r) => [r.step.id, r.step.tools])));
    try {
      await store.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    emit.emit('todo_update', { content, ...todoProgress(content) });
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
async function stage<T>(emit: Emitter, name: string, fn: () => Promise<T>): Promise<T> {
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
