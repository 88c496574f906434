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
import type { ToolRisk } from '../../tools/types.js';
import { blockedToolResult, type Guardrails, toolSubject } from '../guardrails/guardrails.js';
import { askHuman, isBusFailure } from './ask.js';
import type { InterruptBus } from './interrupt-bus.js';
import {
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
  /** Where questions go and answers come from. */
  bus: InterruptBus;
  /** Default `risky`. */
  threshold?: ApprovalThreshold;
  /** Tool guardrails run before any approval; a blocked call is never offered for approval. */
  guardrails?: Guardrails;
  /** Approval wait. Default 120 000 ms. */
  timeoutMs?: number;
  /** Applied when nobody answers in time, or the bus fails (e.g. Redis is down). Default `deny`. */
  defaultAction?: 'approve' | 'deny';
  /** "Approve always" scopes already granted (restoring a session). */
  approvedScopes?: Iterable<string>;
  /** Per-call override: true or false decides; `undefined` falls back to the threshold. */
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
 * as this object.
 *
 * ```ts
 * const approvals = new ApprovalGate({ bus: new MemoryInterruptBus(), guardrails: new Guardrails() });
 * const executor = new Executor({ model, tools, gate: approvals.gate });
 * run.on('interrupt', (e) => showDialog(e.interrupt)); // the UI answers with bus.respond(id, { action: 'approve' })
 * ```
 */
export class ApprovalGate {
  private readonly options: ApprovalGateOptions;
  private readonly runtime: Runtime;
  private readonly threshold: number;
  private readonly scopes: Set<string>;
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
   * only the question is skipped.
   */
  answer(toolCallId: string, response: InterruptResponse): void {
    this.answers.set(toolCallId, response);
  }

  /** Grants "approve always" scopes again (a resumed session). */
  restoreScopes(scopes: Iterable<string>): void {
    for (const scope of scopes) this.scopes.add(scope);
  }

  /** "Approve always" scopes granted so far: tool names, and `invoke_skill:<id>` for skills. */
  approvedScopes(): string[] {
    return [...this.scopes];
  }

  /** Whether `call` would be put to a human now (threshold, override and granted scopes). */
  needsApproval(call: ReadyToolCall): boolean {
    const scope = approvalScope(call.tool.name, call.args);
    if (scope !== undefined && this.scopes.has(scope)) return false;
    return this.options.requiresApproval?.(call) ?? RANK[call.tool.risk] >= this.threshold;
  }

  /** The {@link ToolGate}: scan, then ask when needed. */
  readonly gate: ToolGate = async (call, ctx) => {
    if (this.options.guardrails) {
      const verdict = await this.options.guardrails.checkTool(toolSubject(call), {
        emit: ctx.emit,
        signal: ctx.signal,
      });
      if (verdict.blocked) return { allow: false, result: blockedToolResult(verdict) };
    }
    if (!this.needsApproval(call)) return { allow: true };
    return this.ask(call, ctx);
  };

  private async ask(call: ReadyToolCall, ctx: RunToolsContext): Promise<GateDecision> {
    const name = call.tool.name;
    const timeoutMs = this.options.timeoutMs ?? INTERRUPT_DEFAULTS.approval.timeoutMs;
    const early = this.recall(call, ctx);
    if (!early && ctx.deferApprovals) return this.defer(call, ctx, timeoutMs);
    const outcome = early ?? (await this.askHuman(call, ctx, timeoutMs));
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
    const early = this.answers.get(call.call.id);
    if (!early) return undefined;
    this.answers.delete(call.call.id);
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
    const { clock, random } = this.runtime;
    const meta = { id: newInterruptId(random), runId: ctx.runId, createdAt: clock.now() };
    const request = buildInterrupt(this.question(call, timeoutMs), meta);
    ctx.emit.emit('interrupt', { interrupt: interruptView(request) });
    return {
      allow: false,
      deferred: true,
      isError: false,
      result: `Awaiting approval of ${call.tool.name}: the run is paused until it is answered. The tool has not been executed.`,
    };
  }

  /** The approval question for `call`. */
  private question(call: ReadyToolCall, timeoutMs: number): InterruptSpec {
    const name = call.tool.name;
    return {
      kind: 'approval',
      title: `Approve ${name}?`,
      message: `The agent wants to run ${name} (risk: ${call.tool.risk}).`,
      toolName: name,
      toolCallId: call.call.id,
      args: call.args,
      timeoutMs,
      defaultAction: this.options.defaultAction ?? 'deny',
    };
  }

  /**
   * Asks and waits; `undefined` when the run aborted the wait. A failing bus
   * gives the default action, marked `busFailed`: nobody could answer.
   */
  private async askHuman(
    call: ReadyToolCall,
    ctx: RunToolsContext,
    timeoutMs: number,
  ): Promise<GateOutcome | undefined> {
    const defaultAction = this.options.defaultAction ?? 'deny';
    try {
      const { outcome } = await askHuman(this.question(call, timeoutMs), {
        bus: this.options.bus,
        runId: ctx.runId,
        clock: this.runtime.clock,
        random: this.runtime.random,
        emit: ctx.emit,
        signal: ctx.signal,
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
    this.scopes.add(scope);
    try {
      for (const request of await this.options.bus.pending(runId)) {
        if (
          request.kind === 'approval' &&
          request.toolName &&
          approvalScope(request.toolName, request.args) === scope
        ) {
          await this.options.bus.respond(request.id, { action: 'approve' });
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
  return `User denied execution of ${name}. The tool was not executed.`;
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
