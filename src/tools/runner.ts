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
      const name = call.tool?.name ?? call.call.name;
      const settled = { output: call.message, isError: true };
      outcomes[i] = this.complete(call.call.id, name, call.tool?.maxOutputChars, settled, 0, ctx);
    }
    if (!ready) return outcomes;
    if (ready.length > 1 && canRunConcurrently(prepared, ready)) {
      return this.runConcurrently(prepared, ready, outcomes, ctx);
    }
    for (const i of ready) {
      emitCall(ctx.emit, prepared[i]!);
      outcomes[i] = await this.limited(prepared[i] as ReadyToolCall, ctx);
    }
    return outcomes;
  }

  private async runConcurrently(
    prepared: readonly PreparedCall[],
    ready: readonly number[],
    outcomes: ToolOutcome[],
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
    for (let k = 0; k < ready.length; k++) outcomes[ready[k]!] = results[k]!;
    ctx.emit.emit('parallel_complete', { ids, durationMs: this.clock.now() - start });
    return outcomes;
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
    if (!ctx.gate) return this.invoke(prepared, ctx, start, undefined);
    let decision: ReturnType<ToolGate>;
    try {
      decision = ctx.gate(prepared, ctx);
    } catch (error) {
      return this.invoke(prepared, ctx, start, gateFailure(error));
    }
    // A verdict given at once (the built-in scan's) goes straight on: no promise hop per call (bench/).
    if (!isThenable(decision)) return this.invoke(prepared, ctx, start, denial(decision));
    return Promise.resolve(decision).then(
      (verdict) => this.invoke(prepared, ctx, start, denial(verdict)),
      (error: unknown) => this.invoke(prepared, ctx, start, gateFailure(error)),
    );
  };

  /** Runs the allowed call (`denied` answers it instead) and completes it. */
  private async invoke(
    prepared: ReadyToolCall,
    ctx: RunToolsContext,
    start: number,
    denied: Settled | undefined,
  ): Promise<ToolOutcome> {
    const settled =
      denied ?? (ctx.signal.aborted ? { output: abortedText(prepared.tool.name), isError: true } : undefined);
    if (settled) return this.completeCall(prepared, settled, start, ctx);
    let result = await invokeTool(prepared, ctx, this.clock);
    const filterOutput = ctx.filterOutput;
    if (filterOutput && !result.isError) {
      const apply = (output: string) => filterOutput(output, prepared, ctx);
      result = await filter(apply, result, prepared.tool.name, ctx.signal);
    }
    return this.completeCall(prepared, result, start, ctx);
  }

  private completeCall(
    prepared: ReadyToolCall,
    settled: Settled,
    start: number,
    ctx: RunToolsContext,
  ): ToolOutcome {
    const { call, tool } = prepared;
    return this.complete(call.id, tool.name, tool.maxOutputChars, settled, this.clock.now() - start, ctx);
  }

  private complete(
    id: string,
    name: string,
    toolLimit: number | undefined,
    { output, isError, filtered, deferred, interrupt, attachments }: Settled,
    durationMs: number,
    ctx: RunToolsContext,
  ): ToolOutcome {
    const { text, truncated } = truncateOutput(output, toolLimit ?? this.maxOutputChars);
    const outcome: ToolOutcome = {
      toolCallId: id,
      toolName: name,
      output,
      content: text,
      isError,
      truncated,
      durationMs,
    };
    if (deferred) outcome.deferred = true;
    if (interrupt) outcome.interrupt = interrupt;
    // What the model saw, not the whole output: a 50 MB page stays out of every event log.
    const event: EventPayloads['tool_result'] = { id, name, output: text, isError, durationMs, truncated };
    if (truncated) event.outputChars = output.length;
    if (filtered) outcome.filtered = event.filtered = true;
    if (attachments) {
      outcome.attachments = attachments;
      // Events carry what was returned, never the bytes.
      event.attachments = attachments.map(mediaSummary);
    }
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
