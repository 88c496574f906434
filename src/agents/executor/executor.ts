/**
 * The `Executor`: a ReAct agent. It calls the model, runs the tools it asks
 * for (through the gate where approvals and guardrails plug in), feeds the
 * results back, and stops when the model answers — bounded by an iteration
 * budget and a wall-clock budget, and guarded against the ways tool loops go
 * wrong (docs/executor.md).
 * @module
 */

import { defaultContext } from '../../context/default-context.js';
import { EventBus } from '../../core/event-bus.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { type PriceLookup, pricesOption } from '../../core/pricing.js';
import { linkAbort, Run } from '../../core/run.js';
import { type BudgetCheck, BudgetGuard, checkModelPrices, RunBudget } from '../../core/run-budget.js';
import { inputMessages, type RunInput } from '../../core/run-input.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { emptyUsage } from '../../core/usage.js';
import { Watchdog } from '../../core/watchdog.js';
import { invokerModelIds, type ModelInvoker } from '../../model/invoke.js';
import { invokerFactory } from '../../model/resilience/invoker-options.js';
import type { Schema } from '../../model/schema.js';
import { assertOutputSchema } from '../../model/structured.js';
import type { ModelRequest, SystemPart } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import { type LongTermMemory, memoryOf } from '../../state/long-term-memory.js';
import { ToolRegistry } from '../../tools/registry.js';
import { ToolRunner } from '../../tools/runner.js';
import { takeExecution, withApprovals } from './approvals.js';
import { guardedGate } from './default-gate.js';
import {
  type ExecutionHost,
  ExecutionInit,
  type ExecutionTarget,
  type ExecutorRunOptions,
} from './execution-init.js';
import { failedBeforeStart, runLoop } from './loop.js';
import type { LoopDeps, LoopRun } from './loop-state.js';
import { addMemoryTool, withRunMemory } from './memory-run.js';
import type { ConversationContext } from './option-groups.js';
import type {
  ExecuteOptions,
  ExecutorLimits,
  ExecutorOptions,
  ExecutorResult,
  ExecutorResultOf,
  StructuredResult,
  SystemPromptSource,
} from './options.js';
import { tagsOf } from './run-events.js';
import { resumePoint, type SessionExecuteOptions, sessionContext, withSessionIds } from './session-run.js';
import { type ExecutorSettings, executorSettings, resolveLimits } from './settings.js';
import { outputPlan, withOutput } from './structured-output.js';
import { WallClockBudget, watchCallerDeadline } from './wall-clock-budget.js';

export type { ExecutorRunOptions } from './execution-init.js';

/** Options of an execution started by another agent, on its emitter (see {@link executeOn}). */
export type ExecuteOnOptions = ExecuteOptions & {
  emit: Emitter;
  /** The run's budget, when the calling run has one: the execution stops when it is spent. */
  budget?: BudgetCheck;
  /**
   * The caller's hard time limit (an orchestrator step attempt's): when `ms`
   * pass, the execution's signal aborts with `reason()`. Unlike the executor's
   * `limits.timeoutMs` it does not stop while a human is asked.
   */
  deadline?: { ms: number; reason: () => unknown };
};

/**
 * Runs one execution of `executor` on the caller's emitter — how the
 * orchestrator runs its steps and simple tasks, handoffs their agents, and
 * skills their sub-agents. Emits no `run_started` / `complete`. Resolves
 * like `run().result`: `success`, `partial`, `interrupted` or `failed` with
 * a typed `error`; rejects only for misuse (a `ConfigError`). Not part of
 * the public API: users call `executor.run()`.
 */
export let executeOn: <T>(
  executor: Executor<T>,
  input: RunInput,
  options: ExecuteOnOptions,
) => Promise<ExecutorResultOf<T>>;

/**
 * A ReAct agent. With an `output` schema (on the executor or one run), the
 * result also carries the answer as an `object` of the schema's type.
 *
 * ```ts
 * const executor = new Executor({ model, tools: [add], instructions: 'You are a calculator.' });
 * const run = executor.run('What is 2 + 3?');
 * run.on('tool_call', (e) => console.log(e.name, e.args));
 * const { output } = await run.result;
 *
 * const sum = await executor.run('What is 2 + 3?', { output: z.object({ sum: z.number() }) }).result;
 * sum.object.sum; // number
 * ```
 */
export class Executor<T = undefined> {
  /** Agent name stamped on events. */
  readonly name: string;
  /** The tools the model may call. */
  readonly registry: ToolRegistry;
  private readonly options: ExecutorSettings;
  private readonly limits: ExecutorLimits;
  private readonly runtime: Runtime;
  private readonly invoker: ModelInvoker;
  private readonly context: (() => ConversationContext) | undefined;
  private readonly runner: ToolRunner;
  private readonly base: Omit<ModelRequest, 'messages'>;
  private readonly prices: PriceLookup | undefined;
  private readonly memory: LongTermMemory | undefined;
  /** What every run of this executor shares (`execution-init.ts`). */
  private readonly host: ExecutionHost;
  /** The loop's dependencies on the cached base, without an output schema: made by the first such run. */
  private deps: LoopDeps | undefined;
  /** Run options `resume` made, and where in its conversation the resumed run starts appending to its session. */
  private readonly resumes = new WeakMap<ExecutorRunOptions, number>();

  /** @throws ConfigError for a missing model, a limit out of range, or an `output` that is not a schema with a JSON Schema. */
  constructor(options: ExecutorOptions<T>) {
    const settings = executorSettings(options);
    this.limits = resolveLimits(settings);
    if (settings.output !== undefined) assertOutputSchema(settings.output);
    this.options = withApprovals(settings, settings.runtime ?? {});
    this.name = settings.name ?? 'executor';
    this.runtime = resolveRuntime(settings.runtime);
    this.prices = pricesOption(settings.prices);
    this.invoker = invokerFactory(settings, this.runtime)(settings.model);
    this.context =
      settings.context === false ? undefined : (settings.context ?? defaultContext(settings.model));
    if (!settings.gate && settings.guardrails !== false && !this.options.approvals?.scans) {
      const gate = guardedGate(this.options.gate, settings.guardrails, this.runtime.clock);
      this.options = { ...this.options, gate };
    }
    this.registry =
      settings.tools instanceof ToolRegistry ? settings.tools : new ToolRegistry(settings.tools);
    this.memory = settings.memory && memoryOf(settings.memory, settings.runtime);
    addMemoryTool(this.registry, this.memory);
    this.runner = new ToolRunner({
      concurrency: settings.toolConcurrency,
      limiter: settings.toolLimiter,
      clock: this.runtime.clock,
      maxOutputChars: settings.maxOutputChars,
    });
    this.base = requestBase(settings, undefined);
    this.host = {
      clock: this.runtime.clock,
      approvals: this.options.approvals,
      memory: this.memory,
      execute: (messages, options, on) => this.executeWith(messages, options, on),
    };
  }

  /**
   * Starts an execution on its own event bus and returns its {@link Run}.
   * `input` is a string or content parts (text, images, files) — one user
   * message — or messages, after `options.history`. Events: `run_started`,
   * `stage` executing running → completed/failed, model and tool events,
   * then `complete`. `run.result` resolves however the execution ends —
   * `success`, `partial`, `interrupted`, `failed`, with a typed `error`
   * unless it succeeded (docs/results.md); it rejects, after an `error`
   * event, only for misuse.
   * @throws ConfigError for an input mixing parts and messages, or an invalid part.
   */
  run<U>(input: RunInput, options: ExecutorRunOptions & { output: Schema<U> }): Run<StructuredResult<U>>;
  run(input: RunInput, options?: ExecutorRunOptions): Run<ExecutorResultOf<T>>;
  // The overloads type the result; one implementation serves both.
  run(input: RunInput, runOptions: ExecutorRunOptions = {}): Run<any> {
    const resumedFrom = this.resumes.get(runOptions);
    const options = withSessionIds(runOptions);
    // Read before the run starts, so input that is not parts or messages throws before any work.
    const messages = inputMessages(input);
    const runId = options.runId ?? this.runtime.ids.next('run');
    const { clock, tracing } = this.runtime;
    const bus = new EventBus({ runId, clock, prices: this.prices, tracing });
    const usage = emptyUsage();
    const emit = bus.scope(tagsOf(this.name, options.stepId));
    const limits = { ...this.options.budget, ...options.budget };
    let run: Run<ExecutorResult> | undefined;
    // Checked before the run starts, so an invalid limit throws before any work.
    const unpriced = checkModelPrices(limits, this.modelIds(), this.prices);
    const budget = RunBudget.isSet(limits)
      ? new BudgetGuard(limits, {
          clock,
          usage: bus.usage,
          report: (pressure) => bus.emit('budget', pressure),
          stop: (error) => run?.abort(error),
        })
      : undefined;
    const parts = { bus, emit, runId, messages, options, usage, unpriced, budget, resumedFrom };
    run = new Run<ExecutorResult>(new ExecutionInit(this.host, parts));
    if (budget) run.result.finally(() => budget.dispose()).catch(() => {});
    return run;
  }

  /**
   * Continues an execution that ended `interrupted`, from its `result.state`
   * (or that state's JSON, in another process): the answers recorded with
   * `state.approve(id)` / `state.reject(id, message)` reach the approvals
   * gate, the calls of the paused turn without a result run (an approved
   * one once, a rejected one not at all), and the model goes on. Questions
   * left unanswered are asked again. Without a store claiming the run,
   * resume a state once.
   * @throws RunStateError for a state of an unknown shape; ConfigError for a
   *   state that is not paused or answers an interruption it does not hold.
   */
  resume(
    saved: unknown,
    options: Omit<ExecutorRunOptions, 'runId' | 'history' | 'historyLimit'> = {},
  ): Run<ExecutorResultOf<T>> {
    const approvals = this.options.approvals as ApprovalGate;
    const { runId, messages } = takeExecution(saved, approvals);
    const resumed = { ...options, runId };
    // On a session, the resume appends only what the paused run could not: its last, unfinished turn on.
    this.resumes.set(resumed, resumePoint(messages));
    return this.run(messages, resumed);
  }

  /** The ids of every model a run may call: the invoker's chain and the reflection judge's. */
  private modelIds(): string[] {
    const judge = this.limits.reflection?.invoker;
    return judge
      ? [...invokerModelIds(this.invoker), ...invokerModelIds(judge)]
      : invokerModelIds(this.invoker);
  }

  static {
    // The one way in for the orchestrator, handoffs and skills; not a method, so not public API.
    executeOn = (executor, input, options) =>
      executor.executeWith(input, options, {
        emit: options.emit.scope(tagsOf(executor.name, options.stepId)),
        usage: emptyUsage(),
      }) as Promise<any>;
  }

  /** The request fields of an execution: the per-call system override, the built prompt, or the cached base. */
  private async baseFor(system: string | undefined): Promise<Omit<ModelRequest, 'messages'>> {
    if (system !== undefined) return requestBase(this.options, system);
    const instructions = this.options.instructions;
    if (!isPromptSource(instructions)) return this.base;
    const built = await instructions.build({ tools: await this.registry.specs() });
    return requestBase(this.options, built.parts);
  }

  /**
   * The loop on the execution's request fields, made first unless they are
   * the cached base. The loop releases the run (`releaseRun`) when it ends;
   * a failure before it starts does so in `failedBeforeStart`.
   */
  private startLoop(options: SessionExecuteOptions, run: LoopRun): Promise<ExecutorResult> {
    const start = (base: Omit<ModelRequest, 'messages'>) =>
      this.loop(
        withRunMemory(this.memory, base, { runId: run.emit.runId, stepId: options.stepId }),
        options,
        run,
      );
    if (options.system !== undefined || isPromptSource(this.options.instructions)) {
      return this.baseFor(options.system).then(start, (error) => failedBeforeStart(run, error));
    }
    // The cached base goes straight to the loop: no promise layer for a run waiting on its model (bench).
    try {
      return start(this.base);
    } catch (error) {
      return new Promise((resolve) => resolve(failedBeforeStart(run, error)));
    }
  }

  // Promise handlers rather than an async function: a run waiting on its model holds no frame for it.
  private executeWith(
    input: RunInput,
    options: SessionExecuteOptions & Pick<ExecuteOnOptions, 'budget' | 'deadline'>,
    on: ExecutionTarget,
  ): Promise<ExecutorResult> {
    const emit = on.emit;
    const messages: Message[] = options.history ? options.history.slice() : [];
    for (const message of inputMessages(input)) messages.push(message);

    // Every caller's signal but the run's own (`on.own`) is its own: the execution links a controller to it.
    const own = on.own && options.signal ? on.own : undefined;
    const { signal, abort, unlink } = own
      ? { signal: options.signal as AbortSignal, abort: own.abort, unlink: undefined }
      : linkedController(options.signal);
    // One timer for the run's deadlines: its wall clock, the caller's, and each model call's stall watch.
    const watchdog = own?.watchdog ?? new Watchdog(this.runtime.clock, signal);
    const wallClock = new WallClockBudget(watchdog, this.limits.timeoutMs, abort);
    if (options.deadline) watchCallerDeadline(watchdog, options.deadline, abort);
    const run: LoopRun = {
      messages,
      emit,
      signal,
      usage: on.usage,
      stepId: options.stepId,
      agent: this.name,
      context: sessionContext(this.context?.(), options.writer),
      onCheckpoint: options.onCheckpoint,
      wallClock,
      watchdog,
      unlink,
      budget: options.budget,
    };
    return this.startLoop(options, run);
  }

  private depsOn(base: Omit<ModelRequest, 'messages'>): LoopDeps {
    const { options, limits, invoker, registry, runner } = this;
    return { options, limits, invoker, registry, runner, clock: this.runtime.clock, base };
  }

  /** The loop of one execution, on its request fields. */
  private loop(base: Omit<ModelRequest, 'messages'>, options: ExecuteOptions, run: LoopRun) {
    const output = options.output ?? this.options.output;
    // The cached base without an output schema: one set of dependencies serves every run (bench: memory per waiting run).
    const shared = output === undefined && base === this.base;
    const deps = shared ? (this.deps ??= this.depsOn(base)) : this.depsOn(base);
    // The tools' and the output's JSON Schemas are made before the first request: one may wait on tandem's zod.
    // Built by an earlier run: no extra promise for a run waiting on its model to hold.
    if (output === undefined && this.registry.builtSpecs()) return runLoop(deps, run);
    const early = (error: unknown) => failedBeforeStart(run, error);
    if (output === undefined) return this.registry.specs().then(() => runLoop(deps, run), early);
    const specs = this.registry.specs();
    const executor = { hasTools: this.registry.size > 0, maxReasks: this.limits.maxOutputReasks };
    const plan = outputPlan(output, this.invoker.model, executor);
    return Promise.all([plan, specs]).then(([made]) => {
      deps.output = made;
      deps.base = withOutput(deps.base, made);
      return runLoop(deps, run);
    }, early);
  }
}

/** A signal of the execution's own, aborted with `parent`. */
function linkedController(parent: AbortSignal | undefined) {
  const controller = new AbortController();
  const unlink = linkAbort(parent, (reason) => controller.abort(reason));
  return { signal: controller.signal, abort: (reason?: unknown) => controller.abort(reason), unlink };
}

function isPromptSource(value: ExecutorSettings['instructions']): value is SystemPromptSource {
  return typeof value === 'object' && !Array.isArray(value) && typeof value.build === 'function';
}

function requestBase(
  options: ExecutorSettings,
  system: string | SystemPart[] | undefined,
): Omit<ModelRequest, 'messages'> {
  const base: Omit<ModelRequest, 'messages'> = {};
  const instructions = options.instructions;
  const prompt = system ?? (isPromptSource(instructions) ? undefined : instructions);
  if (prompt?.length) base.system = prompt;
  if (options.temperature !== undefined) base.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) base.maxOutputTokens = options.maxOutputTokens;
  return base;
}
