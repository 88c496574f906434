/**
 * One execution of the ReAct loop: reason (model call) → act (tools, through
 * the gate) → repeat until the model answers, with the loop-safety rules of
 * docs/executor.md. Per-turn work never grows with the history: the
 * conversation array is appended to and shared with the outgoing request.
 * @module
 */
import { abortable } from '../core/abortable.js';
import { AbortError, errorMessage, ModelError, RunError, TandemError } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import type { AssistantMessage, Message, ToolCallPart } from '../core/messages.js';
import type { Clock } from '../core/seams.js';
import { addUsage, type Usage } from '../core/usage.js';
import type { ModelInvoker } from '../model/invoke.js';
import { StreamInterruptedError } from '../model/resilience/errors.js';
import type { FinishReason, ModelRequest, ModelResponse } from '../model/types.js';
import { classifyToolError } from '../tools/error-category.js';
import { type PreparedCall, prepareToolCalls } from '../tools/prepare.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolOutcome, ToolRunner } from '../tools/runner.js';
import { attachNote } from './executor-notes.js';
import {
  type ConversationContext,
  type ExecutorLimits,
  type ExecutorOptions,
  type ExecutorResult,
  MAX_EMPTY_REPLY_RETRIES,
  MAX_INVALID_JSON_RETRIES,
} from './executor-options.js';
import { reflect, reflectionFeedback } from './executor-reflection.js';
import { BatchResults, pendingBatch, toolOnlyOutput } from './executor-results.js';
import {
  budgetWarning,
  callKey,
  LENGTH_CONTINUE_PROMPT,
  LENGTH_ROLLBACK_NOTE,
  RepetitionGuard,
  repetitionNote,
  toolErrorNote,
} from './loop-safety.js';
import { abortErrorOf } from './run.js';

/** What an execution needs from its executor. */
export interface LoopDeps {
  options: ExecutorOptions;
  limits: ExecutorLimits;
  invoker: ModelInvoker;
  registry: ToolRegistry;
  runner: ToolRunner;
  clock: Clock;
  /** The request fields that stay the same every turn (system prompt, sampling). */
  base: Omit<ModelRequest, 'messages'>;
}

/** Per-execution inputs. */
export interface LoopRun {
  messages: Message[];
  emit: Emitter;
  signal: AbortSignal;
  /** Accumulates the usage of every model call. */
  usage: Usage;
  stepId?: string;
  agent: string;
  /** See `ExecuteOptions.onCheckpoint`. */
  onCheckpoint?: (messages: readonly Message[]) => void | Promise<void>;
  /** This execution's context manager, if any. */
  context?: ConversationContext;
  /** True once the wall-clock budget expired. */
  timedOut: () => boolean;
}

/** The ReAct loop of one execution. */
export class ExecutorLoop {
  private iterations = 0;
  private toolCalls = 0;
  private emptyReplies = 0;
  private invalidJsonRetries = 0;
  private invalidToolTurns = 0;
  private continuations = 0;
  private errorStreak = 0;
  private pendingText = '';
  private lastOutcomes: ToolOutcome[] | undefined;
  private toolTurns = 0;
  private reflections = 0;
  /** The answer a reflection sent back; it stands if the model then gives no new one. */
  private retriedAnswer: string | undefined;
  private notes: string[] = [];
  private readonly repetition = new RepetitionGuard();
  private finishReason: FinishReason = 'stop';
  private readonly firstNew: number;

  constructor(
    private readonly deps: LoopDeps,
    private readonly run: LoopRun,
  ) {
    this.firstNew = run.messages.length;
  }

  /** Runs to the end. Throws {@link RunError} / {@link AbortError}, never anything untyped. */
  async execute(): Promise<ExecutorResult> {
    try {
      await this.runPendingCalls();
      for (;;) {
        this.checkBudget();
        if (this.iterations >= this.deps.limits.maxIterations) return this.exhausted();
        const response = await this.callModelSalvaging();
        const result = await this.handle(response);
        if (result) return result;
        const pause = this.run.emit.backpressure();
        if (pause) await pause;
      }
    } catch (error) {
      throw this.typed(error);
    }
  }

  private checkBudget(): void {
    const { signal, timedOut } = this.run;
    if (signal.aborted) throw this.typed(signal.reason);
    if (timedOut()) throw this.timeoutError();
  }

  /**
   * A stream that broke after its text was shown cannot be retried without
   * showing it twice; the text delivered is kept instead, as a reply cut by
   * the length limit, so the model is asked to continue where it stopped
   * (within the same continuation budget). Unfinished tool calls of such a
   * reply are dropped: their arguments may be cut.
   */
  private async callModelSalvaging(): Promise<ModelResponse> {
    try {
      return await this.callModel();
    } catch (error) {
      if (!(error instanceof StreamInterruptedError) || this.run.signal.aborted) throw error;
      const content = error.partial.message.content.filter(
        (p) => p.type === 'text' || p.type === 'reasoning',
      );
      if (!content.some((p) => p.type === 'text' && p.text.trim() !== '')) throw error;
      if (this.continuations >= this.deps.limits.maxLengthContinuations) throw error;
      this.run.emit.emit('retry', {
        model: this.deps.invoker.id,
        attempt: this.continuations + 1,
        delayMs: 0,
        error: { kind: error.kind, message: error.message },
      });
      return { ...error.partial, message: { role: 'assistant', content }, finishReason: 'length' };
    }
  }

  private async callModel(): Promise<ModelResponse> {
    const { deps, run } = this;
    let request: ModelRequest = { ...deps.base, messages: run.messages };
    const tools = deps.registry.specs();
    if (tools.length > 0) request.tools = tools;
    const text = this.notes.length > 0 ? this.notes.join('\n\n') : undefined;
    // The budget warning rides on a tool result only (the seed's rule): a bare reminder would read as a user turn.
    const lastIsTool = run.messages[run.messages.length - 1]?.role === 'tool';
    const budget = lastIsTool ? budgetWarning(this.iterations, deps.limits.maxIterations) : undefined;
    const restore = text || budget ? attachNote(run.messages, { text, budget }) : undefined;
    try {
      const context = run.context;
      if (context) request = await context.prepareRequest(request, { signal: run.signal, emit: run.emit });
      const prepare = deps.options.prepareRequest;
      if (prepare) {
        request = await prepare(request, { iteration: this.iterations, signal: run.signal, emit: run.emit });
      }
      // The run's signal also fires at its time limit: a custom invoker deaf to it still lets the run settle.
      const response = await abortable(
        deps.invoker.invoke(request, {
          signal: run.signal,
          emit: run.emit,
          stream: deps.options.stream !== false,
          compress: context?.compressHook,
        }),
        run.signal,
      );
      addUsage(run.usage, response.usage);
      run.emit.emit('usage', { model: deps.invoker.id, usage: response.usage, total: { ...run.usage } });
      return response;
    } finally {
      restore?.();
    }
  }

  private async handle(response: ModelResponse): Promise<ExecutorResult | undefined> {
    this.finishReason = response.finishReason;
    const message = response.message;
    let calls: ToolCallPart[] | undefined;
    let text = '';
    for (const part of message.content) {
      if (part.type === 'tool_call') (calls ??= []).push(part);
      else if (part.type === 'text') text += part.text;
    }
    if (calls) return response.finishReason === 'length' ? this.rollBack() : this.actOn(message, calls);
    if (text.trim() === '') return this.onEmpty(response);
    this.emptyReplies = 0;
    this.accept(message);
    if (response.finishReason === 'length') {
      this.pendingText += text;
      if (this.continuations < this.deps.limits.maxLengthContinuations) {
        this.continuations++;
        this.run.messages.push({ role: 'user', content: LENGTH_CONTINUE_PROMPT });
        return undefined;
      }
      const error = new RunError(
        'length',
        `Response remained truncated after ${this.continuations} continuation attempt(s)`,
      );
      return this.result(this.pendingText, 'partial', error);
    }
    return this.answer(this.pendingText + text);
  }

  /** A reply with neither text nor tool calls. */
  private onEmpty(response: ModelResponse): ExecutorResult | Promise<ExecutorResult | undefined> | undefined {
    if (this.pendingText) {
      this.iterations++;
      return this.answer(this.pendingText);
    }
    if (this.retriedAnswer !== undefined) {
      this.iterations++;
      return this.result(this.retriedAnswer, 'success');
    }
    if (this.lastOutcomes) {
      this.iterations++;
      return this.answer(toolOnlyOutput(this.lastOutcomes));
    }
    if (response.finishReason === 'content_filter') {
      const cause = new ModelError(
        'content_filter',
        `${this.deps.invoker.id}: reply blocked by the content filter`,
      );
      throw new RunError('model', cause.message, { cause });
    }
    if (this.emptyReplies < MAX_EMPTY_REPLY_RETRIES) {
      this.emptyReplies++;
      return undefined;
    }
    const cause = new ModelError(
      'empty_response',
      `${this.deps.invoker.id}: empty reply (no text, no tool calls) after ${this.emptyReplies + 1} attempts`,
    );
    throw new RunError('model', cause.message, { cause });
  }

  /**
   * A reply cut by the output length limit while it called tools: none of its
   * calls runs — arguments that parse may still be cut short of what the model
   * meant — and it is not kept. The next request asks for a shorter reply,
   * within the continuation budget; past it the execution ends `partial`.
   */
  private rollBack(): ExecutorResult | undefined {
    this.iterations++;
    const { limits, invoker } = this.deps;
    const message = 'Reply cut by the output length limit while calling tools; its tool calls were not run';
    if (this.continuations >= limits.maxLengthContinuations) {
      const error = new RunError(
        'length',
        `${message} (after ${this.continuations} continuation attempt(s))`,
      );
      return this.result(this.partialOutput(), 'partial', error);
    }
    this.continuations++;
    // Its text may already have streamed: the event says it is void and a new reply follows.
    this.run.emit.emit('retry', {
      model: invoker.id,
      attempt: this.continuations,
      delayMs: 0,
      error: { kind: 'length', message },
    });
    if (!this.notes.includes(LENGTH_ROLLBACK_NOTE)) this.notes.push(LENGTH_ROLLBACK_NOTE);
    return undefined;
  }

  private async actOn(message: AssistantMessage, calls: ToolCallPart[]): Promise<ExecutorResult | undefined> {
    const { deps, run } = this;
    const turn = await prepareToolCalls(deps.registry, calls);
    if (turn.unknownTool) {
      if (++this.invalidToolTurns >= deps.limits.maxInvalidToolTurns) {
        const names = turn.calls.filter((c) => c.status === 'unknown_tool').map((c) => c.call.name);
        throw new RunError(
          'invalid_tool_calls',
          `The model called unknown tool(s) ${names.join(', ')} in ${this.invalidToolTurns} consecutive turns`,
        );
      }
    } else {
      this.invalidToolTurns = 0;
      if (turn.invalidJson && this.invalidJsonRetries < MAX_INVALID_JSON_RETRIES) {
        this.invalidJsonRetries++;
        return undefined;
      }
      this.invalidJsonRetries = 0;
    }
    this.emptyReplies = 0;
    this.pendingText = '';
    this.continuations = 0;
    this.accept(message);
    await run.onCheckpoint?.(run.messages);
    return this.runTools(turn.calls);
  }

  /**
   * A resumed conversation may end with a model turn whose tool calls have no
   * results yet (the run paused for an approval, or stopped mid-tool), or only
   * some (a batch cut short): the calls without a result run first, before
   * the model is asked anything; a recorded result is never run again.
   */
  private async runPendingCalls(): Promise<void> {
    const pending = pendingBatch(this.run.messages);
    if (!pending) return;
    const prepared = await prepareToolCalls(this.deps.registry, pending.calls);
    await this.runTools(prepared.calls, pending.results, pending.at);
  }

  /**
   * Runs the turn's calls that have no result in `results` and writes the
   * tool message answering them at `at`. In a batch of several calls, every
   * result is checkpointed as it settles, so neither a crash nor a pause runs
   * it again. Calls whose approval was deferred get no result: the results so
   * far are checkpointed and the execution ends with `RunError('interrupted')`.
   */
  private async runTools(
    calls: readonly PreparedCall[],
    results = new BatchResults(calls.map((c) => c.call.id)),
    at = this.run.messages.length,
  ): Promise<undefined> {
    const { deps, run } = this;
    const deferred: string[] = [];
    let saving: Promise<void> = Promise.resolve();
    const onSettled = (outcome: ToolOutcome) => {
      // A call cut by an abort has not settled: it runs again on resume.
      if (run.signal.aborted) return;
      if (outcome.deferred) deferred.push(outcome.toolName);
      else if (results.add(outcome) && calls.length > 1 && !results.complete) {
        saving = saving.then(() => this.checkpointBatch(results, at));
        // Awaited once the batch is done; until then a failed save must not count as unhandled.
        saving.catch(() => {});
      }
    };
    const outcomes = await deps.runner.run(
      calls.filter((_, i) => !results.answered(i)),
      {
        signal: run.signal,
        emit: run.emit,
        runId: run.emit.runId,
        stepId: run.stepId,
        agent: run.agent,
        sandbox: deps.options.sandbox,
        gate: deps.options.gate,
        filterOutput: deps.options.outputFilter,
        deferApprovals: deps.options.deferApprovals,
        onSettled,
      },
    );
    await saving;
    if (run.signal.aborted) throw this.typed(run.signal.reason);
    // Writes the tool message, or completes the one a resumed batch recorded.
    if (results.size > 0) run.messages[at] = results.message();
    await run.onCheckpoint?.(run.messages);
    if (deferred.length > 0) {
      throw new RunError(
        'interrupted',
        `Paused for approval of ${deferred.join(', ')}; resume with the answers`,
      );
    }
    this.toolCalls += outcomes.length;
    this.toolTurns++;
    this.lastOutcomes = results.outcomes();
    this.noteTurn(calls, this.lastOutcomes);
    return undefined;
  }

  /** Checkpoints the conversation ending with the batch's results so far. */
  private checkpointBatch(results: BatchResults, at: number): void | Promise<void> {
    const messages = this.run.messages.slice(0, at);
    messages.push(results.message());
    return this.run.onCheckpoint?.(messages);
  }

  /**
   * Sets the notes the next request carries: a repetition note naming the
   * repeated call, and after a failing turn the recovery hint for the
   * category of its first failure (the critical note once the streak is long).
   * `outcomes` answers `calls` one to one, in call order.
   */
  private noteTurn(calls: readonly PreparedCall[], outcomes: readonly ToolOutcome[]): void {
    let key = '';
    let lastName = '';
    for (let i = 0; i < calls.length; i++) {
      const prepared = calls[i]!;
      lastName = prepared.tool?.name ?? prepared.call.name;
      key = callKey(lastName, prepared.args === undefined ? prepared.call.arguments : prepared.args);
      this.repetition.push(key, outcomes[i]?.content);
    }
    const streak = this.repetition.streak();
    const args = key.slice(lastName.length + 1);
    const sameResult = this.repetition.sameResults(streak);
    const repeated = repetitionNote({ toolName: lastName, args, sameResult }, streak);
    if (repeated) this.notes.push(repeated);
    // The seed's rule: the turn's first failure speaks for the turn.
    const failure = outcomes.find((o) => o.isError);
    this.errorStreak = failure ? this.errorStreak + 1 : 0;
    if (failure) this.notes.push(toolErrorNote(classifyToolError(failure.content), this.errorStreak));
  }

  /** Appends an accepted model turn; the notes it was sent with are spent. */
  private accept(message: AssistantMessage): void {
    this.run.messages.push(message);
    this.iterations++;
    if (this.notes.length > 0) this.notes = [];
  }

  /** A final answer: returned, or first judged when reflection is on. */
  private answer(output: string): ExecutorResult | Promise<ExecutorResult | undefined> {
    return this.deps.limits.reflection ? this.reflectOn(output) : this.result(output, 'success');
  }

  /**
   * Returns `output`, or — when the judge says `RETRY` and an iteration is
   * left — appends its feedback and returns `undefined` so the loop goes on.
   * A reflection cut by the wall-clock budget leaves the answer standing.
   */
  private async reflectOn(output: string): Promise<ExecutorResult | undefined> {
    const { deps, run } = this;
    const settings = deps.limits.reflection!;
    if (
      this.reflections >= settings.maxReflections ||
      this.toolTurns < settings.minToolTurns ||
      this.iterations >= deps.limits.maxIterations
    ) {
      return this.result(output, 'success');
    }
    this.reflections++;
    let retry: string | undefined;
    try {
      const verdict = await reflect(settings, {
        messages: run.messages,
        firstNew: this.firstNew,
        answer: output,
        signal: run.signal,
        emit: run.emit,
        usage: run.usage,
      });
      if (verdict.verdict === 'retry') retry = verdict.feedback;
    } catch (error) {
      if (!run.timedOut()) throw error;
    }
    if (retry === undefined || run.timedOut()) return this.result(output, 'success');
    this.retriedAnswer = output;
    this.pendingText = '';
    this.continuations = 0;
    run.messages.push(reflectionFeedback(retry));
    return undefined;
  }

  private exhausted(): ExecutorResult {
    const max = this.deps.limits.maxIterations;
    const error = new RunError('max_iterations', `Stopped after ${max} iteration(s) without a final answer`);
    return this.result(this.partialOutput(), 'partial', error);
  }

  /** The best answer of an execution cut short: text so far, a standing answer, or the last tool results. */
  private partialOutput(): string {
    return (
      this.pendingText || this.retriedAnswer || (this.lastOutcomes ? toolOnlyOutput(this.lastOutcomes) : '')
    );
  }

  private result(output: string, status: ExecutorResult['status'], error?: TandemError): ExecutorResult {
    const { messages, usage } = this.run;
    const result: ExecutorResult = {
      output,
      status,
      messages,
      newMessages: messages.slice(this.firstNew),
      usage: { ...usage },
      iterations: this.iterations,
      toolCalls: this.toolCalls,
      finishReason: this.finishReason,
    };
    if (error) result.error = error;
    return result;
  }

  private timeoutError(): RunError {
    return new RunError('timeout', `Execution exceeded its ${this.deps.limits.timeoutMs} ms budget`);
  }

  /** Maps anything thrown inside the loop to the error the execution ends with. */
  private typed(error: unknown): TandemError {
    if (this.run.timedOut())
      return error instanceof RunError && error.kind === 'timeout' ? error : this.timeoutError();
    if (this.run.signal.aborted) return abortErrorOf(this.run.signal);
    if (error instanceof RunError || error instanceof AbortError) return error;
    if (error instanceof ModelError) {
      return new RunError('model', `Model call failed (${error.kind}): ${error.message}`, { cause: error });
    }
    if (error instanceof TandemError) return error;
    return new RunError('internal', errorMessage(error), { cause: error });
  }
}
