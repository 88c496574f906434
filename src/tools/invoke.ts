/**
 * One tool call, from `execute` to its settled output: the tool's timeout,
 * the caller's abort, and its context. A tool that returns synchronously
 * settles at once — no abort listener, no promise — and the call's scoped
 * emitter is made only when the tool (or tracing) asks for it.
 * @module
 */
import { onAbort } from '../core/abort-listeners.js';
import { AbortError, errorMessage } from '../core/errors.js';
import type { Emitter, EventPayloads, EventTags, EventType, InterruptView } from '../core/events.js';
import type { MediaPart } from '../core/messages.js';
import type { Sandbox } from '../core/sandbox.js';
import type { CancelTimer, Clock } from '../core/seams.js';
import { isThenable } from '../core/thenable.js';
import { toolOutputOf } from './output.js';
import type { PreparedCall } from './prepare.js';
import type { ToolContext, ToolProgress } from './types.js';

/** A call that passed name, JSON and argument checks. */
type ReadyCall = Extract<PreparedCall, { status: 'ready' }>;

/** What a call needs of its turn (the runner's `RunToolsContext` extends it). */
export interface CallContext {
  /** Aborts every unfinished call of the turn. */
  signal: AbortSignal;
  emit: Emitter;
  runId: string;
  stepId?: string;
  agent?: string;
  sandbox?: Sandbox;
  /** See {@link ToolContext.turn}. */
  turn?: number;
  /** See {@link ToolContext.waitingForHuman}. */
  waitingForHuman?: () => () => void;
}

/** What a call settled with, before truncation. */
export interface Settled {
  output: string;
  isError: boolean;
  attachments?: MediaPart[];
  filtered?: boolean;
  deferred?: true;
  /** The question a deferred call waits on. */
  interrupt?: InterruptView;
}

/** Calls the tool; settles on its result, its timeout or the caller's abort, whichever comes first. */
export function invokeTool(prepared: ReadyCall, ctx: CallContext, clock: Clock): Settled | Promise<Settled> {
  return new ToolCall(prepared, ctx).start(clock);
}

/** The output of a call the caller aborted. */
export function abortedText(name: string): string {
  return `Tool '${name}' was aborted`;
}

class ToolCall {
  private done = false;
  private sync: Settled | undefined;
  private resolve: ((settled: Settled) => void) | undefined;
  private cancelTimer: CancelTimer | undefined;
  private stopAbort: (() => void) | undefined;
  // Without a timeout the call's signal would only mirror the caller's: it shares it.
  private readonly controller: AbortController | undefined;
  private readonly emit: CallEmitter;

  constructor(
    private readonly prepared: ReadyCall,
    private readonly ctx: CallContext,
  ) {
    if (prepared.tool.timeoutMs !== undefined) this.controller = new AbortController();
    this.emit = new CallEmitter(ctx.emit, prepared.call.id);
  }

  start(clock: Clock): Settled | Promise<Settled> {
    const { tool, args, call } = this.prepared;
    const { ctx, controller } = this;
    const toolCtx: ToolContext = {
      signal: controller?.signal ?? ctx.signal,
      runId: ctx.runId,
      toolCallId: call.id,
      stepId: ctx.stepId,
      agent: ctx.agent,
      sandbox: ctx.sandbox,
      turn: ctx.turn,
      emit: this.emit,
      progress: (update) => this.progress(update),
    };
    if (ctx.waitingForHuman) toolCtx.waitingForHuman = ctx.waitingForHuman;
    const timeoutMs = tool.timeoutMs;
    if (controller && timeoutMs !== undefined) {
      this.cancelTimer = clock.setTimer(timeoutMs, () => {
        const message = `Tool '${tool.name}' timed out after ${timeoutMs} ms`;
        this.settle(message, true);
        controller.abort(new AbortError(message));
      });
    }
    // Asked of the caller's emitter first: without tracing, the call's own emitter is not made for it.
    const span = ctx.emit.span ? this.emit.scoped.span : undefined;
    let result: unknown;
    try {
      // With tracing, the tool runs with its span active: spans it starts nest under it.
      result = span
        ? span(
            {
              kind: 'tool',
              name: `execute_tool ${tool.name}`,
              callId: call.id,
              attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool.name },
              input: args,
            },
            async () => tool.execute(args, toolCtx),
          )
        : tool.execute(args, toolCtx);
    } catch (error) {
      this.settle(`Error: ${errorMessage(error)}`, true);
      return this.sync!;
    }
    if (ctx.signal.aborted) this.aborted();
    else if (!isThenable(result)) this.settleValue(result);
    else {
      // A tool that outlives its timeout may still settle later: ignored, but handled.
      result.then(
        (value) => this.settleValue(value),
        (error: unknown) => this.settle(`Error: ${errorMessage(error)}`, true),
      );
      if (!this.done) this.stopAbort = onAbort(ctx.signal, () => this.aborted());
    }
    if (this.sync) return this.sync;
    return new Promise<Settled>((resolve) => {
      this.resolve = resolve;
    });
  }

  private progress(update: ToolProgress): void {
    if (this.done) return;
    const { call, tool } = this.prepared;
    this.emit.emit('tool_progress', Object.assign({}, update, { id: call.id, name: tool.name }));
  }

  private settleValue(value: unknown): void {
    if (this.done) return;
    const read = toolOutputOf(value);
    if ('invalid' in read) this.settle(`Error: ${read.invalid}`, true);
    else this.settle(read.text, false, read.attachments);
  }

  private aborted(): void {
    this.settle(abortedText(this.prepared.tool.name), true);
    this.controller?.abort(this.ctx.signal.reason);
  }

  private settle(output: string, isError: boolean, attachments?: MediaPart[]): void {
    if (this.done) return;
    this.done = true;
    this.cancelTimer?.();
    this.stopAbort?.();
    const settled = attachments ? { output, isError, attachments } : { output, isError };
    if (this.resolve) this.resolve(settled);
    else this.sync = settled;
  }
}

/** The call's emitter: its events carry the call's id as `parentId`; the scoped emitter is made on first use. */
class CallEmitter implements Emitter {
  private made: Emitter | undefined;

  constructor(
    private readonly parent: Emitter,
    private readonly callId: string,
  ) {}

  get scoped(): Emitter {
    this.made ??= this.parent.scope({ parentId: this.callId });
    return this.made;
  }
  get runId(): string {
    return this.parent.runId;
  }
  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void {
    this.scoped.emit(type, payload);
  }
  scope(tags: EventTags): Emitter {
    return this.scoped.scope(tags);
  }
  backpressure(): Promise<void> | undefined {
    return this.parent.backpressure();
  }
  get span(): Emitter['span'] {
    return this.scoped.span;
  }
}
