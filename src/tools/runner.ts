/**
 * Runs the prepared tool calls of one turn: concurrently when that is safe,
 * in order otherwise, with per-tool timeouts, caller abort, output truncation
 * and a gate for guardrails and approvals. Whatever a tool does, every call
 * gets exactly one result, in call order.
 * @module
 */
import pLimit from 'p-limit';
import { ConfigError } from '../core/errors.js';
import type { Emitter, EventPayloads, InterruptView } from '../core/events.js';
import { mediaSummary } from '../core/media.js';
import type { MediaPart } from '../core/messages.js';
import { type Clock, systemClock } from '../core/seams.js';
import { isThenable } from '../core/thenable.js';
import { denial, filter, gateFailure } from './gate-filter.js';
import { abortedText, type CallContext, invokeTool, type Settled } from './invoke.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateOutput } from './output.js';
import { callPaths, pathsDisjoint } from './paths.js';
import type { PreparedCall } from './prepare.js';

/** The result of one tool call. */
export interface ToolOutcome {
  toolCallId: string;
  toolName: string;
  /** The full output (after the context's `filterOutput`); the `tool_result` event carries `content` instead. */
  output: string;
  /** What the model sees: `output`, truncated past the tool's limit. */
  content: string;
  isError: boolean;
  truncated: boolean;
  durationMs: number;
  /** Images and files the tool returned, which the model gets with `content`; never truncated, dropped when the filter withholds the output. */
  attachments?: MediaPart[];
  /** Set when `filterOutput` changed the tool's output; the original is not kept. */
  filtered?: boolean;
  /**
   * Set when the gate deferred the call (an approval asked in pause mode):
   * the call has no result yet, and `output` only says so.
   */
  deferred?: true;
  /** The question a deferred call waits on (its interrupt id answers it on resume). */
  interrupt?: InterruptView;
}

/** A call that passed name, JSON and argument checks. */
export type ReadyToolCall = Extract<PreparedCall, { status: 'ready' }>;

/**
 * A gate's verdict: run the call, or answer it with `result` instead — or,
 * `deferred`, leave it unanswered until a later run (the `tool_result` event
 * then carries `result`, which must say so).
 */
export type GateDecision =
  | { allow: true }
  | { allow: false; result: string; isError?: boolean; deferred?: true; interrupt?: InterruptView };

/**
 * Called before each ready call executes (guardrails and approvals plug in
 * here). `undefined` allows the call. A denial's `isError` defaults to true.
 * A gate that throws answers the call with the error. A gate that waits (an
 * approval) must honour `ctx.signal`: the runner waits for its decision; when
 * `ctx.deferApprovals` is set it should defer the call instead of waiting.
 */
export type ToolGate = (
  call: ReadyToolCall,
  ctx: RunToolsContext,
) => GateDecision | Promise<GateDecision> | undefined;

/**
 * Rewrites a successful tool's output before the model sees it (and before
 * truncation): untrusted-content guardrails plug in here. A filter that
 * throws answers the call with an error instead of the unfiltered output.
 * Returning `{ output, withheld: true }` withholds all of the tool's result:
 * the model gets `output` and none of the tool's images or files.
 */
export type ToolOutputFilter = (
  output: string,
  call: ReadyToolCall,
  ctx: RunToolsContext,
) => FilteredOutput | Promise<FilteredOutput>;

/** What a {@link ToolOutputFilter} gives: the text the model reads, or a withheld result. */
export type FilteredOutput = string | { output: string; withheld: true };

/** What {@link ToolRunner.run} needs from the run. */
export interface RunToolsContext extends CallContext {
  gate?: ToolGate;
  filterOutput?: ToolOutputFilter;
  /** Asks the gate to defer approvals instead of waiting for them (a run that pauses to ask). */
  deferApprovals?: boolean;
  /** Told each call's outcome as it settles, before {@link ToolRunner.run} resolves. Must not throw. */
  onSettled?: (outcome: ToolOutcome) => void;
}

/**
 * Runs a task under a cap shared by whoever holds it, such as `pLimit(32)` from
 * p-limit: every tool call of every run passed the same limiter waits its turn.
 */
export type ToolLimiter = <T>(task: () => Promise<T>) => Promise<T>;

/** Options of a {@link ToolRunner}. */
export interface ToolRunnerOptions {
  /**
   * Most calls of one turn running at once. Default 8. The cap is per turn, so
   * one runner shared by many concurrent runs never makes them wait on each
   * other; pass `limiter` for a cap across runs.
   */
  concurrency?: number;
  /** A cap across every run (and anything else sharing it). Default: none. */
  limiter?: ToolLimiter;
  /** Timers for tool timeouts and durations. Default: the system clock. */
  clock?: Clock;
  /** Output cap for tools without their own `maxOutputChars`. Default 20 000. */
  maxOutputChars?: number;
}

/** Executes a turn's tool calls. One runner serves any number of runs. */
export class ToolRunner {
  private readonly concurrency: number;
  private readonly limiter?: ToolLimiter;
  private readonly clock: Clock;
  private readonly maxOutputChars: number;

  constructor(options: ToolRunnerOptions = {}) {
    const concurrency = options.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new ConfigError(`ToolRunner concurrency must be a positive integer, got ${concurrency}`);
    }
    const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
    if (!(maxOutputChars > 0))
      throw new ConfigError(`ToolRunner maxOutputChars must be positive, got ${maxOutputChars}`);
    this.concurrency = concurrency;
    this.limiter = options.limiter;
    this.clock = options.clock ?? systemClock;
    this.maxOutputChars = maxOutputChars;
  }

  /**
   * Runs `prepared` and resolves with one outcome per call, in call order.
   * Calls that are not ready are answered at once with their message. Ready
   * calls run concurrently when there are at least two, all are
   * parallel-safe and no two name overlapping paths; otherwise one after
   * another. Emits `tool_call` and then exactly one `tool_result` per call,
   * and `parallel_start` / `parallel_complete` around a concurrent batch.
   * Never rejects: a throwing tool, a timeout or an abort becomes an error
   * result. A deferred call's outcome is marked `deferred`.
   */
  async run(prepared: readonly PreparedCall[], ctx: RunToolsContext): Promise<ToolOutcome[]> {
    const outcomes = new Array<ToolOutcome>(prepared.length);
    let ready: number[] | undefined;
    for (let i = 0; i < prepared.length; i++) {
      const call = prepared[i]!;
      if (call.status === 'ready') {
        (ready ??= []).push(i);
        continue;
      }
      emitCall(ctx.emit, call);
      outcomes[i] = this.complete(this.outcome(call, { output: call.message, isError: true }, 0), ctx);
    }
    if (!ready) return outcomes;
    if (ready.length > 1 && canRunConcurrently(prepared, ready)) {
      const results = await this.runConcurrently(prepared, ready, ctx);
      for (let k = 0; k < ready.length; k++) outcomes[ready[k]!] = results[k]!;
      return outcomes;
    }
    for (const i of ready) {
      emitCall(ctx.emit, prepared[i]!);
      outcomes[i] = await this.limited(prepared[i] as ReadyToolCall, ctx);
    }
    return outcomes;
  }

  /** The outcomes of the `ready` calls, in their order. */
  private async runConcurrently(
    prepared: readonly PreparedCall[],
    ready: readonly number[],
    ctx: RunToolsContext,
  ): Promise<ToolOutcome[]> {
    const ids = ready.map((i) => prepared[i]!.call.id);
    for (const i of ready) emitCall(ctx.emit, prepared[i]!);
    ctx.emit.emit('parallel_start', { ids });
    const start = this.clock.now();
    // A limiter only when the batch is larger than the cap: most turns need none, and
    // calls that all start now share the batch's start time.
    const results = await (ready.length > this.concurrency
      ? this.inTurnLimit(prepared, ready, ctx)
      : Promise.all(ready.map((i) => this.limited(prepared[i] as ReadyToolCall, ctx, start))));
    ctx.emit.emit('parallel_complete', { ids, durationMs: this.clock.now() - start });
    return results;
  }

  /**
   * Runs a batch larger than the cap: at most `concurrency` calls at once, the
   * next starting as one settles, in call order. The limiter is the turn's own,
   * so runs sharing this runner never wait on each other's calls.
   */
  private inTurnLimit(
    prepared: readonly PreparedCall[],
    ready: readonly number[],
    ctx: RunToolsContext,
  ): Promise<ToolOutcome[]> {
    const limit = pLimit(this.concurrency);
    return Promise.all(ready.map((i) => limit(() => this.limited(prepared[i] as ReadyToolCall, ctx))));
  }

  /** `startedAt`: when the call starts, if the caller read the clock just now (a batch's calls start together). */
  private readonly limited = (
    prepared: ReadyToolCall,
    ctx: RunToolsContext,
    startedAt?: number,
  ): Promise<ToolOutcome> =>
    this.limiter ? this.limiter(() => this.execute(prepared, ctx)) : this.execute(prepared, ctx, startedAt);

  /** Gate, tool, filter. */
  private readonly execute = (
    prepared: ReadyToolCall,
    ctx: RunToolsContext,
    start = this.clock.now(),
  ): Promise<ToolOutcome> => {
    if (!ctx.gate) return this.invoke(prepared, ctx, start);
    let decision: ReturnType<ToolGate>;
    try {
      decision = ctx.gate(prepared, ctx);
    } catch (error) {
      return Promise.resolve(this.complete(this.since(prepared, gateFailure(error), start), ctx));
    }
    // A verdict given at once (the built-in scan's) goes straight on: no promise hop per call (bench/).
    if (!isThenable(decision)) {
      const denied = denial(decision);
      if (!denied) return this.invoke(prepared, ctx, start);
      return Promise.resolve(this.complete(this.since(prepared, denied, start), ctx));
    }
    return Promise.resolve(decision).then(
      (verdict) => {
        const denied = denial(verdict);
        return denied
          ? this.complete(this.since(prepared, denied, start), ctx)
          : this.invoke(prepared, ctx, start);
      },
      (error: unknown) => this.complete(this.since(prepared, gateFailure(error), start), ctx),
    );
  };

  /** Runs a call the gate allowed and completes it. */
  private async invoke(prepared: ReadyToolCall, ctx: RunToolsContext, start: number): Promise<ToolOutcome> {
    if (ctx.signal.aborted) {
      const aborted = { output: abortedText(prepared.tool.name), isError: true };
      return this.complete(this.since(prepared, aborted, start), ctx);
    }
    let result = await invokeTool(prepared, ctx, this.clock);
    if (ctx.filterOutput && !result.isError) result = await filter(result, prepared, ctx);
    return this.complete(this.since(prepared, result, start), ctx);
  }

  /** The outcome of a ready call that started at `start`. */
  private since(prepared: ReadyToolCall, settled: Settled, start: number): ToolOutcome {
    return this.outcome(prepared, settled, this.clock.now() - start);
  }

  /** The outcome of a call (a call that is not ready may have no tool: it goes by the name it was called). */
  private outcome(
    prepared: PreparedCall,
    { output, isError, filtered, deferred, interrupt, attachments }: Settled,
    durationMs: number,
  ): ToolOutcome {
    const { call, tool } = prepared;
    const { text, truncated } = truncateOutput(output, tool?.maxOutputChars ?? this.maxOutputChars);
    const outcome: ToolOutcome = {
      toolCallId: call.id,
      toolName: tool?.name ?? call.name,
      output,
      content: text,
      isError,
      truncated,
      durationMs,
    };
    if (deferred) outcome.deferred = true;
    if (interrupt) outcome.interrupt = interrupt;
    if (filtered) outcome.filtered = true;
    if (attachments) outcome.attachments = attachments;
    return outcome;
  }

  /** Reports a settled call (its `tool_result` event and `onSettled`) and returns its outcome. */
  private complete(outcome: ToolOutcome, ctx: RunToolsContext): ToolOutcome {
    const {
      toolCallId: id,
      toolName: name,
      output,
      content,
      isError,
      durationMs,
      truncated,
      attachments,
    } = outcome;
    // What the model saw, not the whole output: a 50 MB page stays out of every event log.
    const event: EventPayloads['tool_result'] = { id, name, output: content, isError, durationMs, truncated };
    if (truncated) event.outputChars = output.length;
    if (outcome.filtered) event.filtered = true;
    // Events carry what was returned, never the bytes.
    if (attachments) event.attachments = attachments.map(mediaSummary);
    ctx.emit.emit('tool_result', event);
    ctx.onSettled?.(outcome);
    return outcome;
  }
}

function emitCall(emit: Emitter, prepared: PreparedCall): void {
  const { call } = prepared;
  const name = prepared.tool?.name ?? call.name;
  const args = prepared.args !== undefined ? prepared.args : call.arguments;
  if (prepared.status === 'ready' && prepared.requestedName !== undefined) {
    emit.emit('tool_call', { id: call.id, name, args, requestedName: prepared.requestedName });
  } else {
    emit.emit('tool_call', { id: call.id, name, args });
  }
}

function canRunConcurrently(prepared: readonly PreparedCall[], ready: readonly number[]): boolean {
  const paths: string[][][] = [];
  for (const i of ready) {
    const { tool, args } = prepared[i] as ReadyToolCall;
    if (!tool.parallelSafe) return false;
    paths.push(callPaths(tool, args));
  }
  return pathsDisjoint(paths);
}
