/**
 * `Guardrails`: the three stages (input, output, tool calls) with their
 * default guardrails, composable with your own, sharing one time budget and
 * one clock.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import { type Clock, systemClock } from '../../core/seams.js';
import type { ReadyToolCall, ToolGate } from '../../tools/runner.js';
import { DEFAULT_GUARDRAIL_TIMEOUT_MS, runGuardrails } from './guardrail-runner.js';
import { jailbreakGuardrail } from './input.js';
import { DEFAULT_BLOCKED_OUTPUT_MESSAGE, harmfulContentGuardrail, piiGuardrail } from './output.js';
import { toolArgsGuardrail } from './tool-args.js';
import type { Guardrail, GuardrailVerdict, TextVerdict, ToolScanSubject } from './types.js';

/** Options of {@link Guardrails}. */
export interface GuardrailsOptions {
  /** Input guardrails. Default `[jailbreakGuardrail()]`; `[]` disables the stage. */
  input?: readonly Guardrail<string>[];
  /** Output guardrails. Default `[piiGuardrail(), harmfulContentGuardrail()]`. */
  output?: readonly Guardrail<string>[];
  /** Tool-call guardrails. Default `[toolArgsGuardrail()]`. */
  tool?: readonly Guardrail<ToolScanSubject>[];
  /** Budget of each scan. Default 500 ms. */
  timeoutMs?: number;
  /** A scan that times out or throws blocks. Default false: it is reported as a warning and the subject passes. */
  failClosed?: boolean;
  /** What a blocked output is replaced with. Default: the seed's apology. */
  blockedOutputMessage?: string;
  /** Clock of the scan budgets. Default: the system clock. */
  clock?: Clock;
}

/** Where a check's events go and what cancels it. */
export interface GuardrailCheckOptions {
  emit?: Emitter;
  signal?: AbortSignal;
}

/** The default guardrails of each stage, for composing with your own. */
export function defaultGuardrails(): {
  input: Guardrail<string>[];
  output: Guardrail<string>[];
  tool: Guardrail<ToolScanSubject>[];
} {
  return {
    input: [jailbreakGuardrail()],
    output: [piiGuardrail(), harmfulContentGuardrail()],
    tool: [toolArgsGuardrail()],
  };
}

/**
 * Input, output and tool-call guardrails.
 *
 * ```ts
 * const guardrails = new Guardrails({
 *   output: [...defaultGuardrails().output, myToxicityCheck],
 * });
 * const verdict = await guardrails.checkInput(userText, { emit });
 * if (verdict.blocked) return refuse(verdict.reason);
 * const executor = new Executor({ model, tools, gate: guardrails.toolGate() });
 * ```
 */
export class Guardrails {
  private readonly input: readonly Guardrail<string>[];
  private readonly output: readonly Guardrail<string>[];
  private readonly tool: readonly Guardrail<ToolScanSubject>[];
  private readonly timeoutMs: number;
  private readonly failClosed: boolean;
  private readonly clock: Clock;
  /** What a blocked output is replaced with. */
  readonly blockedOutputMessage: string;

  constructor(options: GuardrailsOptions = {}) {
    const defaults = defaultGuardrails();
    this.input = options.input ?? defaults.input;
    this.output = options.output ?? defaults.output;
    this.tool = options.tool ?? defaults.tool;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_GUARDRAIL_TIMEOUT_MS;
    this.failClosed = options.failClosed ?? false;
    this.clock = options.clock ?? systemClock;
    this.blockedOutputMessage = options.blockedOutputMessage ?? DEFAULT_BLOCKED_OUTPUT_MESSAGE;
  }

  /** Checks user input. `text` is the input as the guardrails left it. */
  async checkInput(text: string, options: GuardrailCheckOptions = {}): Promise<TextVerdict> {
    const { subject, ...verdict } = await runGuardrails(this.input, text, this.runOptions('input', options));
    return { ...verdict, text: subject };
  }

  /**
   * Checks a final answer. `text` is what to show and store in the
   * transcript: the answer with PII redacted, or — when blocked — the
   * replacement message.
   */
  async checkOutput(text: string, options: GuardrailCheckOptions = {}): Promise<TextVerdict> {
    const { subject, ...verdict } = await runGuardrails(
      this.output,
      text,
      this.runOptions('output', options),
    );
    return { ...verdict, text: verdict.blocked ? this.blockedOutputMessage : subject };
  }

  /** Checks a tool call before it runs. */
  async checkTool(subject: ToolScanSubject, options: GuardrailCheckOptions = {}): Promise<GuardrailVerdict> {
    const { subject: _, ...verdict } = await runGuardrails(
      this.tool,
      subject,
      this.runOptions('tool', options),
    );
    return verdict;
  }

  /**
   * A {@link ToolGate} that refuses a blocked call with the result
   * `Tool blocked: <reason>`. For approvals on top, pass these guardrails to
   * `ApprovalGate` instead: it scans first, then asks.
   */
  toolGate(): ToolGate {
    return async (call, ctx) => {
      const verdict = await this.checkTool(toolSubject(call), { emit: ctx.emit, signal: ctx.signal });
      return verdict.blocked ? { allow: false, result: blockedToolResult(verdict) } : { allow: true };
    };
  }

  private runOptions(stage: 'input' | 'output' | 'tool', options: GuardrailCheckOptions) {
    return {
      stage,
      clock: this.clock,
      timeoutMs: this.timeoutMs,
      failClosed: this.failClosed,
      emit: options.emit,
      signal: options.signal,
    };
  }
}

/** The subject tool guardrails see for a ready call. */
export function toolSubject(call: ReadyToolCall): ToolScanSubject {
  return { toolName: call.tool.name, args: call.args, toolCallId: call.call.id };
}

/** The result a blocked tool call gets: `Tool blocked: <reason>`. */
export function blockedToolResult(verdict: GuardrailVerdict): string {
  return `Tool blocked: ${verdict.reason ?? 'a guardrail refused this call'}`;
}
