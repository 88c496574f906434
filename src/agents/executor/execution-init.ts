/**
 * What `Executor.run()` hands its {@link Run}: the body that starts the
 * execution (`run_started`, the memory and session around it) and how its
 * result or failure closes the run (the `stage` events, a paused run's
 * state, the `complete` payload).
 * @module
 */
import type { EventBus } from '../../core/event-bus.js';
import type { Emitter, EventPayloads } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { completePayload, type RunInit } from '../../core/run.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import type { RunIds } from '../../core/run-input.js';
import type { Clock } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import { Watchdog } from '../../core/watchdog.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { LongTermMemory } from '../../state/long-term-memory.js';
import { pausedExecution } from './approvals.js';
import { aroundExecution } from './memory-run.js';
import type { ExecuteOptions, ExecutorResult } from './options.js';
import { startedPayload } from './run-events.js';
import { executeOnSession, type SessionExecuteOptions, type SessionRunOptions } from './session-run.js';

/**
 * Options of `Executor.run`: those of one execution, and the run's ids
 * (`runId` becomes the run's id on every event).
 */
export type ExecutorRunOptions = Omit<ExecuteOptions, 'emit'> & RunIds & SessionRunOptions;

/** What every run of one executor shares. */
export interface ExecutionHost {
  clock: Clock;
  approvals: ApprovalGate | undefined;
  memory: LongTermMemory | undefined;
  /** Runs the execution on the run's emitter, signal (in `options`) and usage. */
  execute(
    messages: Message[],
    options: SessionExecuteOptions & { budget?: BudgetCheck },
    on: ExecutionTarget,
  ): Promise<ExecutorResult>;
}

/** Where an execution runs: the emitter of its events, the usage it adds to, how it aborts its run. */
export interface ExecutionTarget {
  /** Scoped already to the executor's agent name and the step. */
  emit: Emitter;
  usage: Usage;
  /**
   * Given when `options.signal` is the signal of the run `Executor.run()`
   * made for the execution: how the execution aborts it (its time limit),
   * and the watchdog the run tells of its aborts. A controller and a
   * listener of the execution's own would cost each waiting run ~1 KB.
   */
  own?: { abort: (reason?: unknown) => void; watchdog: Watchdog };
}

/** What one run is made of, read by `Executor.run()` before it starts. */
export interface ExecutionParts {
  bus: EventBus;
  emit: Emitter;
  runId: string;
  messages: Message[];
  options: ExecutorRunOptions;
  usage: Usage;
  unpriced: EventPayloads['unpriced_models'] | undefined;
  budget: BudgetCheck | undefined;
  /** A resume: the messages of its input before this index are in the session already. */
  resumedFrom: number | undefined;
}

/**
 * One run's {@link RunInit}. A class rather than closures over `run()`'s
 * variables: every run waiting on its model holds it, at a quarter of the
 * bytes (bench: memory per waiting run). The result is finished in
 * `complete` and a failure noted in `failed`, not in handlers chained to the
 * body: a layer of promises less as well.
 */
export class ExecutionInit implements RunInit<ExecutorResult> {
  readonly bus: EventBus;
  readonly signal: AbortSignal | undefined;
  private readonly emit: Emitter;
  private readonly runId: string;
  private readonly messages: Message[];
  private readonly options: ExecutorRunOptions;
  private readonly spent: Usage;
  private readonly unpriced: EventPayloads['unpriced_models'] | undefined;
  private readonly budget: BudgetCheck | undefined;
  private readonly resumedFrom: number | undefined;
  /** The execution's watchdog, made when the body starts: the run's aborts reach it through `aborted`. */
  private watchdog: Watchdog | undefined;

  constructor(
    private readonly host: ExecutionHost,
    parts: ExecutionParts,
  ) {
    this.bus = parts.bus;
    this.signal = parts.options.signal;
    this.emit = parts.emit;
    this.runId = parts.runId;
    this.messages = parts.messages;
    this.options = parts.options;
    this.spent = parts.usage;
    this.unpriced = parts.unpriced;
    this.budget = parts.budget;
    this.resumedFrom = parts.resumedFrom;
  }

  body(signal: AbortSignal, abort: (reason?: unknown) => void): Promise<ExecutorResult> {
    const { emit, runId, messages, options, host, budget } = this;
    emit.emit('run_started', startedPayload(messages, options));
    if (this.unpriced) emit.emit('unpriced_models', this.unpriced);
    emit.emit('stage', { name: 'executing', status: 'running' });
    const usage = this.spent;
    const memoryRun = { ids: { ...options, runId }, input: messages, emit, signal };
    const onSession = {
      runId,
      clock: host.clock,
      emit,
      input: messages,
      usage,
      resumedFrom: this.resumedFrom,
    };
    const own = { abort, watchdog: new Watchdog(host.clock, signal, false) };
    this.watchdog = own.watchdog;
    const execute = () =>
      executeOnSession(options, onSession, (opts) =>
        host.execute(messages, { ...opts, signal, budget }, { emit, usage, own }),
      );
    return aroundExecution(host.memory, memoryRun, execute);
  }

  complete(result: ExecutorResult): EventPayloads['complete'] {
    // The bus prices each call; the result reports what the whole run cost.
    const cost = this.bus.usage.costUsd;
    if (cost !== undefined) result.usage.costUsd = cost;
    const failed = result.status === 'failed';
    const stage: EventPayloads['stage'] = { name: 'executing', status: failed ? 'failed' : 'completed' };
    if (failed && result.error) stage.detail = result.error.message;
    this.emit.emit('stage', stage);
    const { approvals } = this.host;
    if (result.status === 'interrupted') result.state = pausedExecution(this.runId, result, this.host);
    approvals?.forgetRun(this.runId);
    return completePayload(result);
  }

  failed(error: unknown): void {
    this.host.approvals?.forgetRun(this.runId);
    // Misuse found once the run started: the stage closes before the run rejects.
    this.emit.emit('stage', { name: 'executing', status: 'failed', detail: (error as Error).message });
  }

  usage(): Usage {
    return this.spent;
  }

  aborted(): void {
    this.watchdog?.abort();
  }
}
