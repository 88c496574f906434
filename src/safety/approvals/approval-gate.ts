/**
 * `ApprovalGate`: the {@link ToolGate} that scans a call with the tool
 * guardrails and then, when its risk reaches the threshold, asks a human.
 * An approval never bypasses the scan (the seed skipped it: bug B15), and
 * every call gets a result whatever the answer.
 * @module
 */
import { isAbortError } from '../../core/errors.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import type { GateDecision, ReadyToolCall, RunToolsContext, ToolGate } from '../../tools/runner.js';
import type { NeedsApprovalContext, ToolRisk } from '../../tools/types.js';
import { blockedToolResult, type Guardrails, toolSubject } from '../guardrails/guardrails.js';
import { askHuman, isBusFailure } from './ask.js';
import type { InterruptBus } from './interrupt-bus.js';
import {
  answerText,
  buildInterrupt,
  INTERRUPT_DEFAULTS,
  type InterruptOutcome,
  type InterruptResponse,
  type InterruptSpec,
  interruptView,
  newInterruptId,
} from './interrupts.js';

/** Which tools need approval: every tool, `moderate` and `risky` ones, `risky` ones, or none. */
export type ApprovalThreshold = 'all' | 'moderate' | 'risky' | 'none';

/** Name of the tool that runs skills; its approvals are scoped per skill id. */
export const SKILL_TOOL_NAME = 'invoke_skill';

/** Argument keys holding the skill id of an `invoke_skill` call, in order of preference. */
export const SKILL_ID_ARGS: readonly string[] = ['skill_id', 'skillId', 'skill', 'id', 'name'];

/** Options of an {@link ApprovalGate}. */
export interface ApprovalGateOptions {
  /**
   * Where questions go and answers come from, live. Without a bus nobody can
   * answer while the run waits: a call that needs approval pauses the run,
   * which ends `interrupted` and is answered on `result.state`.
   */
  bus?: InterruptBus;
  /** Applies to tools without `needsApproval`. Default `risky`. */
  threshold?: ApprovalThreshold;
  /** Tool guardrails run before any approval; a blocked call is never offered for approval. */
  guardrails?: Guardrails;
  /** Approval wait. Default 120 000 ms. */
  timeoutMs?: number;
  /** Applied when nobody answers in time, or the bus fails (e.g. Redis is down). Default `deny`. */
  defaultAction?: 'approve' | 'deny';
  /** "Approve always" scopes already granted (restoring a session). */
  approvedScopes?: Iterable<string>;
  /**
   * How long "approve always" and answers given ahead last: `session`
   * (default), as long as this object, across its runs; `run`, within one run
   * (keyed by run id), for a gate that serves many users' runs — what an
   * Executor or Orchestrator without `approvals` uses.
   */
  scope?: 'session' | 'run';
  /** Per-call override for tools without `needsApproval`: true or false decides; `undefined` falls back to the threshold. */
  requiresApproval?: (call: ReadyToolCall) => boolean | undefined;
  /** Clock for the wait, randomness for interrupt ids. */
  runtime?: Partial<Runtime>;
}

const RANK: Readonly<Record<ToolRisk, number>> = { safe: 0, moderate: 1, risky: 2 };
const THRESHOLD_RANK: Readonly<Record<ApprovalThreshold, number>> = {
  all: 0,
  moderate: 1,
  risky: 2,
  none: 3,
};

/**
 * Approvals for tool calls, for one session: "approve always" lasts as long
 * as this object (or one run, with `scope: 'run'`). With a bus it asks live;
 * without one, a call that needs approval pauses the run (`interrupted`).
 *
 * ```ts
 * const approvals = new ApprovalGate({ bus: new MemoryInterruptBus(), guardrails: new Guardrails() });
 * const executor = new Executor({ model, tools, safety: { approvals } });
 * run.on('interrupt', (e) => showDialog(e.interrupt)); // the UI answers with bus.respond(id, { action: 'approve' })
 * ```
 */
export class ApprovalGate {
  private readonly options: ApprovalGateOptions;
  private readonly runtime: Runtime;
  private readonly threshold: number;
  private readonly scopes: Set<string>;
  /** Scopes of each run, with `scope: 'run'`. */
  private readonly runScopes = new Map<string, Set<string>>();
  private readonly answers = new Map<string, InterruptResponse>();

  constructor(options: ApprovalGateOptions) {
    this.options = options;
    this.runtime = resolveRuntime(options.runtime);
    this.threshold = THRESHOLD_RANK[options.threshold ?? 'risky'];
    this.scopes = new Set(options.approvedScopes ?? []);
  }

  /**
   * Answers a tool call's approval ahead of time — how a resumed run receives
   * the answer given while it was stopped. The call is still scanned first;
   * only the question is skipped. `runId` is required with `scope: 'run'`.
   */
  answer(toolCallId: string, response: InterruptResponse, runId?: string): void {
    this.answers.set(this.key(runId, toolCallId), response);
  }

  /** Grants "approve always" scopes again (a resumed session, or run with `scope: 'run'`). */
  restoreScopes(scopes: Iterable<string>, runId?: string): void {
    const granted = this.scopesOf(runId);
    for (const scope of scopes) granted.add(scope);
  }

  /** "Approve always" scopes granted so far: tool names, and `invoke_skill:<id>` for skills. */
  approvedScopes(runId?: string): string[] {
    return [...this.scopesOf(runId)];
  }

  /** True when this gate scans calls with tool guardrails before it asks (its `guardrails` option). */
  get scans(): boolean {
    return this.options.guardrails !== undefined;
  }

  /** Drops what a run with `scope: 'run'` left here (its scopes and unused answers); called when it ends. */
  forgetRun(runId: string): void {
    if (this.options.scope !== 'run') return;
    this.runScopes.delete(runId);
    const prefix = this.key(runId, '');
    for (const key of this.answers.keys()) if (key.startsWith(prefix)) this.answers.delete(key);
  }

  private scopesOf(runId: string | undefined): Set<string> {
    if (this.options.scope !== 'run' || runId === undefined) return this.scopes;
    let scopes = this.runScopes.get(runId);
    if (!scopes) this.runScopes.set(runId, (scopes = new Set()));
    return scopes;
  }

  private key(runId: string | undefined, toolCallId: string): string {
    return this.options.scope === 'run' ? `${runId ?? ''}\u0000${toolCallId}` : toolCallId;
  }

  /**
   * Whether `call` would be put to a human now: not when its scope was
   * approved always; otherwise the tool's `needsApproval` decides, and
   * without one the `requiresApproval` override, then the threshold.
   */
  async needsApproval(
    call: ReadyToolCall,
    ctx?: Pick<RunToolsContext, 'runId' | 'stepId' | 'agent'>,
  ): Promise<boolean> {
    const scope = approvalScope(call.tool.name, call.args);
    if (scope !== undefined && this.scopesOf(ctx?.runId).has(scope)) return false;
    const own = call.tool.needsApproval;
    if (typeof own === 'boolean') return own;
    if (own) return (await own(call.args, needsApprovalContext(call, ctx))) === true;
    return this.options.requiresApproval?.(call) ?? RANK[call.tool.risk] >= this.threshold;
  }

  /** The {@link ToolGate}: a question's pause or answer, else scan, then ask when needed. */
  readonly gate: ToolGate = (call, ctx) => {
    const asked = call.tool.question && this.questionDecision(call, ctx);
    if (asked) return asked;
    // Without guardrails, a call no rule can hold is allowed at once: the runner then stays synchronous.
    if (!this.options.guardrails && this.plainlyAllowed(call)) return { allow: true };
    return this.check(call, ctx);
  };

  /**
   * A call of a tool that asks a human (`Tool.question`) in a run that
   * pauses to ask: answered with the answer a resume delivered (the tool
   * does not run: its result is the answer), else deferred with its
   * question. `undefined` when the run asks live: the tool asks itself.
   */
  private questionDecision(call: ReadyToolCall, ctx: RunToolsContext): GateDecision | undefined {
    const answer = this.recall(call, ctx);
    if (answer) return { allow: false, isError: false, result: answerText(answer) };
    if (!ctx.deferApprovals) return undefined;
    const { title, options } = call.tool.question!(call.args);
    const kind = options?.length ? 'decision' : 'input';
    const spec: InterruptSpec = {
      kind,
      title,
      options,
      toolName: call.tool.name,
      toolCallId: call.call.id,
      args: call.args,
    };
    const result = `Awaiting the user's answer to "${title}": the run is paused until it is answered.`;
    return this.deferWith(spec, ctx, result);
  }

  /** True when neither the tool, the override nor the threshold can ask about `call`. */
  private plainlyAllowed(call: ReadyToolCall): boolean {
    const own = call.tool.needsApproval;
    if (own !== undefined) return own === false;
    return !this.options.requiresApproval && RANK[call.tool.risk] < this.threshold;
  }

  private async check(call: ReadyToolCall, ctx: RunToolsContext): Promise<GateDecision> {
    if (this.options.guardrails) {
      const verdict = await this.options.guardrails.checkTool(toolSubject(call), {
        emit: ctx.emit,
        signal: ctx.signal,
      });
      if (verdict.blocked) return { allow: false, result: blockedToolResult(verdict) };
    }
    if (!(await this.needsApproval(call, ctx))) return { allow: true };
    return this.ask(call, ctx);
  }

  private async ask(call: ReadyToolCall, ctx: RunToolsContext): Promise<GateDecision> {
    const name = call.tool.name;
    const timeoutMs = this.options.timeoutMs ?? INTERRUPT_DEFAULTS.approval.timeoutMs;
    const early = this.recall(call, ctx);
    const bus = this.options.bus;
    if (!early && (ctx.deferApprovals || !bus)) return this.defer(call, ctx, timeoutMs);
    const outcome = early ?? (await this.askHuman(call, ctx));
    if (!outcome) {
      return {
        allow: false,
        result: `Approval of ${name} was cancelled: the run was aborted. The tool was not executed.`,
      };
    }
    switch (outcome.action) {
      case 'approve':
        return { allow: true };
      case 'approve_always':
        await this.grant(call, ctx.runId);
        return { allow: true };
      default:
        return { allow: false, result: refusal(name, outcome, timeoutMs) };
    }
  }

  /** An answer given ahead of time (see {@link ApprovalGate.answer}), reported as the response. */
  private recall(call: ReadyToolCall, ctx: RunToolsContext): InterruptOutcome | undefined {
    const key = this.key(ctx.runId, call.call.id);
    const early = this.answers.get(key);
    if (!early) return undefined;
    this.answers.delete(key);
    ctx.emit.emit('interrupt_response', {
      interruptId: `answered:${call.call.id}`,
      action: early.action,
      timedOut: false,
    });
    return { ...early, timedOut: false };
  }

  /**
   * A run that pauses to ask: the question is emitted as an `interrupt` event
   * (the run's saved state lists it) and answered when the run is resumed
   * (see {@link ApprovalGate.answer}); nothing waits, and it is not put on
   * the bus, where an answer would reach nobody.
   */
  private defer(call: ReadyToolCall, ctx: RunToolsContext, timeoutMs: number): GateDecision {
    const result = `Awaiting approval of ${call.tool.name}: the run is paused until it is answered. The tool has not been executed.`;
    return this.deferWith(this.question(call, timeoutMs), ctx, result);
  }

  /** Defers a call on `spec`: the `interrupt` event lists it, `result` is what the `tool_result` event says meanwhile. */
  private deferWith(spec: InterruptSpec, ctx: RunToolsContext, result: string): GateDecision {
    const { clock, random } = this.runtime;
    const meta = { id: newInterruptId(random), runId: ctx.runId, createdAt: clock.now() };
    const interrupt = interruptView(buildInterrupt(spec, meta));
    ctx.emit.emit('interrupt', { interrupt });
    return { allow: false, deferred: true, interrupt, isError: false, result };
  }

  /** The approval question for `call`. */
  private question(call: ReadyToolCall, timeoutMs: number): InterruptSpec {
    const name = call.tool.name;
    return {
      kind: 'approval',
      title: `Approve ${name}?`,
      message: `The agent wants to run ${name} (risk: ${call.tool.risk}) with ${argsText(call.args)}.`,
      toolName: name,
      toolCallId: call.call.id,
      args: call.args,
      timeoutMs,
      defaultAction: this.options.defaultAction ?? 'deny',
    };
  }

  /**
   * Asks on the gate's bus (the caller checked there is one) and waits;
   * `undefined` when the run aborted the wait. A failing bus gives the
   * default action, marked `busFailed`: nobody could answer.
   */
  private async askHuman(call: ReadyToolCall, ctx: RunToolsContext): Promise<GateOutcome | undefined> {
    const timeoutMs = this.options.timeoutMs ?? INTERRUPT_DEFAULTS.approval.timeoutMs;
    const bus = this.options.bus as InterruptBus;
    const defaultAction = this.options.defaultAction ?? 'deny';
    try {
      const { outcome } = await askHuman(this.question(call, timeoutMs), {
        bus,
        runId: ctx.runId,
        clock: this.runtime.clock,
        random: this.runtime.random,
        emit: ctx.emit,
        signal: ctx.signal,
        waitingForHuman: ctx.waitingForHuman,
      });
      return outcome;
    } catch (error) {
      if (isBusFailure(error)) return { action: defaultAction, timedOut: true, busFailed: true };
      if (!isAbortError(error)) throw error;
      return undefined;
    }
  }

  /** Remembers the call's scope and approves the run's other pending requests in it. */
  private async grant(call: ReadyToolCall, runId: string): Promise<void> {
    const scope = approvalScope(call.tool.name, call.args);
    if (scope === undefined) return;
    this.scopesOf(runId).add(scope);
    const bus = this.options.bus;
    if (!bus) return;
    try {
      for (const request of await bus.pending(runId)) {
        if (
          request.kind === 'approval' &&
          request.toolName &&
          approvalScope(request.toolName, request.args) === scope
        ) {
          await bus.respond(request.id, { action: 'approve' });
        }
      }
    } catch (error) {
      // The call itself is approved; its siblings are then asked (or time out) on their own.
      if (!isBusFailure(error)) throw error;
    }
  }
}

/** An answer, or the default applied because the bus failed. */
type GateOutcome = InterruptOutcome & { busFailed?: boolean };

/** The result a refused call gets: why it was not run, in words the model can act on. */
function refusal(name: string, outcome: GateOutcome, timeoutMs: number): string {
  if (outcome.busFailed) {
    return `The approval request for ${name} could not reach a human: the approval service is unavailable. The default "${outcome.action}" was applied. The tool was not executed.`;
  }
  if (outcome.timedOut) {
    return `No answer to the approval request for ${name} within ${Math.round(timeoutMs / 1000)} s; the default "${outcome.action}" was applied. The tool was not executed.`;
  }
  const reason = typeof outcome.value === 'string' && outcome.value.trim() ? outcome.value.trim() : undefined;
  if (reason) {
    const stop = /[.!?]$/.test(reason) ? '' : '.';
    return `User denied execution of ${name}: ${reason}${stop} The tool was not executed.`;
  }
  return `User denied execution of ${name}. The tool was not executed.`;
}

/** What a tool's `needsApproval` predicate is told about the call. */
function needsApprovalContext(
  call: ReadyToolCall,
  ctx: Pick<RunToolsContext, 'runId' | 'stepId' | 'agent'> | undefined,
): NeedsApprovalContext {
  const out: NeedsApprovalContext = { runId: ctx?.runId ?? '', toolCallId: call.call.id };
  if (ctx?.stepId !== undefined) out.stepId = ctx.stepId;
  if (ctx?.agent !== undefined) out.agent = ctx.agent;
  return out;
}

/**
 * What "approve always" covers for a call: the exact tool name, or
 * `invoke_skill:<skill id>` for a skill (so approving one skill never
 * approves another). `undefined` for a skill call without an id: nothing to
 * remember.
 */
export function approvalScope(toolName: string, args: unknown): string | undefined {
  if (toolName !== SKILL_TOOL_NAME) return toolName;
  if (args === null || typeof args !== 'object') return undefined;
  const record = args as Record<string, unknown>;
  for (const key of SKILL_ID_ARGS) {
    const id = record[key];
    if (typeof id === 'string' && id) return `${SKILL_TOOL_NAME}:${id}`;
  }
  return undefined;
}

/** A call's arguments as a UI line: JSON, cut at 200 characters. */
function argsText(args: unknown): string {
  const json = JSON.stringify(args) ?? 'no arguments';
  return json.length > 200 ? `${json.slice(0, 199)}…` : json;
}
