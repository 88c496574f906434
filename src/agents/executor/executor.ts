/**
 * The `Executor`: a ReAct agent. It calls the model, runs the tools it asks
 * for (through the gate where approvals and guardrails plug in), feeds the
 * results back, and stops when the model answers — bounded by an iteration
 * budget and a wall-clock budget, and guarded against the ways tool loops go
 * wrong (docs/executor.md).
 * @module
 */
import { EventBus } from '../../core/event-bus.js';
import type { Emitter, EventPayloads, EventTags } from '../../core/events.js';
import { andThen, type MaybePromise } from '../../core/maybe-async.js';
import { type Message, textOf } from '../../core/messages.js';
import { type PriceLookup, pricesOption } from '../../core/pricing.js';
import { checkModelPrices, RunBudget, watchBudget } from '../../core/run-budget.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import { directInvoker, invokerModelIds, type ModelInvoker } from '../../model/invoke.js';
import type { Schema } from '../../model/schema.js';
import { jsonSchemasReady } from '../../model/schema-json.js';
import { outputFormat } from '../../model/structured.js';
import type { ModelRequest, SystemPart } from '../../model/types.js';
import { ToolRegistry } from '../../tools/registry.js';
import { ToolRunner } from '../../tools/runner.js';
import { linkAbort, Run } from '../run.js';
import { runLoop } from './loop.js';
import type { LoopDeps, LoopRun } from './loop-state.js';
import {
  type ExecuteOptions,
  type ExecutorLimits,
  type ExecutorOptions,
  type ExecutorResult,
  type ExecutorResultOf,
  resolveLimits,
  type StructuredResult,
  type SystemPromptSource,
} from './options.js';
import { outputPlan, withOutput } from './structured-output.js';
import { WallClockBudget } from './wall-clock-budget.js';

/** Options of {@link Executor.run}. */
export type ExecutorRunOptions = Omit<ExecuteOptions, 'emit' | 'abort'>;

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
  private readonly options: ExecutorOptions;
  private readonly limits: ExecutorLimits;
  private readonly runtime: Runtime;
  private readonly invoker: ModelInvoker;
  private readonly runner: ToolRunner;
  private readonly base: Omit<ModelRequest, 'messages'>;
  private readonly prices: PriceLookup | undefined;

  /** @throws ConfigError for a missing model, a limit out of range, or an `output` that is not a schema with a JSON Schema. */
  constructor(options: ExecutorOptions<T>) {
    this.limits = resolveLimits(options);
    if (options.output !== undefined) outputFormat(options.output);
    this.options = options;
    this.name = options.name ?? 'executor';
    this.runtime = resolveRuntime(options.runtime);
    this.prices = pricesOption(options.prices);
    this.invoker = options.invoker ?? directInvoker(options.model);
    this.registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
    this.runner = new ToolRunner({
      concurrency: options.toolConcurrency,
      limiter: options.toolLimiter,
      clock: this.runtime.clock,
      maxOutputChars: options.maxOutputChars,
    });
    this.base = requestBase(options, undefined);
  }

  /**
   * Starts an execution on its own event bus and returns its {@link Run}.
   * Events: `run_started`, `stage` executing running → completed/failed,
   * model and tool events, then exactly one `complete` or `error`.
   */
  run<U>(
    input: string | Message[],
    options: ExecutorRunOptions & { output: Schema<U> },
  ): Run<StructuredResult<U>>;
  run(input: string | Message[], options?: ExecutorRunOptions): Run<ExecutorResultOf<T>>;
  // The overloads type the result; one implementation serves both.
  run(input: string | Message[], options: ExecutorRunOptions = {}): Run<any> {
    const runId = this.runtime.ids.next('run');
    const { clock, tracing } = this.runtime;
    const bus = new EventBus({ runId, clock, prices: this.prices, tracing });
    const usage = emptyUsage();
    const emit = bus.scope(tagsOf(this.name, options.stepId));
    const limits = { ...this.options.budget, ...options.budget };
    let run: Run<ExecutorResult> | undefined;
    // Checked and watched before the run starts, so an invalid limit throws before any work.
    const unpriced = checkModelPrices(limits, this.modelIds(), this.prices);
    const unwatch = RunBudget.isSet(limits)
      ? watchBudget(bus, limits, clock, (error) => run?.abort(error))
      : undefined;
    run = new Run<ExecutorResult>({
      bus,
      signal: options.signal,
      usage: () => usage,
      complete: completePayload,
      body: (signal, abort) => {
        emit.emit('run_started', { input: inputText(input) });
        if (unpriced) emit.emit('unpriced_models', unpriced);
        emit.emit('stage', { name: 'executing', status: 'running' });
        return this.executeWith(input, { ...options, signal }, bus, usage, abort).then(
          (result) => {
            // The bus prices each call; the result reports what the whole run cost.
            if (bus.usage.costUsd !== undefined) result.usage.costUsd = bus.usage.costUsd;
            emit.emit('stage', { name: 'executing', status: 'completed' });
            return result;
          },
          (error: unknown) => {
            emit.emit('stage', { name: 'executing', status: 'failed', detail: (error as Error).message });
            throw error;
          },
        );
      },
    });
    if (unwatch) run.result.then(unwatch, unwatch);
    return run;
  }

  /** The ids of every model a run may call: the invoker's chain and the reflection judge's. */
  private modelIds(): string[] {
    const judge = this.limits.reflection?.invoker;
    return judge
      ? [...invokerModelIds(this.invoker), ...invokerModelIds(judge)]
      : invokerModelIds(this.invoker);
  }

  /**
   * Runs one execution on the caller's emitter (the orchestrator runs each
   * plan step this way). Emits no `run_started` / `complete`; failures are
   * thrown as `RunError` (kinds `model`, `timeout`, `invalid_tool_calls`,
   * `invalid_output`, `internal`) or `AbortError`.
   */
  execute<U>(
    input: string | Message[],
    options: ExecuteOptions & { emit: Emitter; output: Schema<U> },
  ): Promise<StructuredResult<U>>;
  execute(
    input: string | Message[],
    options: ExecuteOptions & { emit: Emitter },
  ): Promise<ExecutorResultOf<T>>;
  execute(input: string | Message[], options: ExecuteOptions & { emit: Emitter }): Promise<any> {
    return this.executeWith(input, options, options.emit, emptyUsage(), options.abort);
  }

  /** The request fields of an execution: the per-call system override, the built prompt, or the cached base. */
  private baseFor(system: string | undefined): MaybePromise<Omit<ModelRequest, 'messages'>> {
    if (system !== undefined) return requestBase(this.options, system);
    const instructions = this.options.instructions;
    if (!isPromptSource(instructions)) return this.base;
    return instructions
      .build({ tools: this.registry.specs() })
      .then((built) => requestBase(this.options, built.parts));
  }

  // Promise handlers rather than an async function: a run waiting on its model holds no frame for it.
  private executeWith(
    input: string | Message[],
    options: ExecuteOptions,
    parent: Emitter | undefined,
    usage: Usage,
    abortSignal?: (reason?: unknown) => void,
  ): Promise<ExecutorResult> {
    const { clock: runClock, tracing } = this.runtime;
    const emit = (
      parent ?? new EventBus({ runId: this.runtime.ids.next('run'), clock: runClock, tracing })
    ).scope(tagsOf(this.name, options.stepId));
    const messages: Message[] = options.history ? options.history.slice() : [];
    if (typeof input === 'string') messages.push({ role: 'user', content: input });
    else for (const message of input) messages.push(message);

    // A signal costs microseconds and most of a kilobyte in Node: a run's own signal serves.
    const owned =
      abortSignal && options.signal
        ? { signal: options.signal, abort: abortSignal, unlink: undefined }
        : undefined;
    const { signal, abort, unlink } = owned ?? linkedController(options.signal);
    const budget = new WallClockBudget(this.runtime.clock, this.limits.timeoutMs, abort);
    const run: LoopRun = {
      messages,
      emit: budget.watch(emit),
      signal,
      usage,
      stepId: options.stepId,
      agent: this.name,
      context: this.options.context?.(),
      onCheckpoint: options.onCheckpoint,
      wallClock: budget,
    };
    let running: Promise<ExecutorResult>;
    try {
      running = Promise.resolve(
        andThen(this.baseFor(options.system), (base) => this.loop(base, options, run)),
      );
    } catch (error) {
      running = Promise.reject(error);
    }
    const done = () => {
      budget.dispose();
      unlink?.();
    };
    return running.then(
      (result) => {
        done();
        return result;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
  }

  /** The loop of one execution, on its request fields. */
  private loop(base: Omit<ModelRequest, 'messages'>, options: ExecuteOptions, run: LoopRun) {
    const deps: LoopDeps = {
      options: this.options,
      limits: this.limits,
      invoker: this.invoker,
      registry: this.registry,
      runner: this.runner,
      clock: this.runtime.clock,
      base,
    };
    const output = options.output ?? this.options.output;
    if (output !== undefined) {
      const hasTools = this.registry.specs().length > 0;
      deps.output = outputPlan(output, this.invoker.model, hasTools, this.limits.maxOutputReasks);
      deps.base = withOutput(deps.base, deps.output);
    }
    // A zod < 4.2 schema's JSON Schema is filled in once tandem's zod is imported.
    return andThen(jsonSchemasReady(), () => runLoop(deps, run));
  }
}

/** A signal of the execution's own, aborted with `parent`. */
function linkedController(parent: AbortSignal | undefined) {
  const controller = new AbortController();
  const unlink = linkAbort(parent, controller);
  return { signal: controller.signal, abort: (reason?: unknown) => controller.abort(reason), unlink };
}

function isPromptSource(value: ExecutorOptions['instructions']): value is SystemPromptSource {
  return typeof value === 'object' && !Array.isArray(value) && typeof value.build === 'function';
}

function requestBase(
  options: ExecutorOptions,
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

function completePayload(result: ExecutorResult): EventPayloads['complete'] {
  return { output: result.output, status: result.status, usage: result.usage };
}

function tagsOf(agent: string, stepId: string | undefined): EventTags {
  return stepId === undefined ? { agent } : { agent, stepId };
}

function inputText(input: string | Message[]): string {
  if (typeof input === 'string') return input;
  for (let i = input.length - 1; i >= 0; i--) if (input[i]!.role === 'user') return textOf(input[i]!);
  return '';
}
