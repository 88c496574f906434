/**
 * `Guardrails`: the stages (input, output, tool calls, tool outputs) with
 * their default guardrails, composable with your own, sharing one time budget
 * and one clock.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import { type Clock, systemClock } from '../../core/seams.js';
import type { GateDecision, ReadyToolCall, ToolGate, ToolOutputFilter } from '../../tools/runner.js';
import { DEFAULT_GUARDRAIL_TIMEOUT_MS, runGuardrails, runStage } from './guardrail-runner.js';
import { jailbreakGuardrail } from './input.js';
import { DEFAULT_BLOCKED_OUTPUT_MESSAGE, harmfulContentGuardrail, piiGuardrail } from './output.js';
import { toolArgsGuardrail } from './tool-args.js';
import type { Guardrail, GuardrailAction, GuardrailVerdict, TextVerdict, ToolScanSubject } from './types.js';
import {
  DEFAULT_UNTRUSTED_TOOL_PATTERN,
  type UntrustedLevel,
  untrustedContentGuardrail,
} from './untrusted.js';
import { UNTRUSTED_SLICE_CHARS, wrapInSlices, wrapUntrusted } from './untrusted-scan.js';

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
  /**
   * A scan that times out or throws blocks. Default false: it is reported as
   * a warning and the subject passes. A guardrail's own `failClosed` wins:
   * the default tool-argument scan fails closed.
   */
  failClosed?: boolean;
  /** What a blocked output is replaced with. Default: the seed's apology. */
  blockedOutputMessage?: string;
  /** Clock of the scan budgets. Default: the system clock. */
  clock?: Clock;
  /** The tool-output stage: which tools return untrusted content and what to do with it. */
  toolOutput?: ToolOutputOptions;
}

/** Options of the tool-output stage ({@link Guardrails.checkToolOutput}). */
export interface ToolOutputOptions {
  /**
   * Which tools return untrusted content. Default: names matching
   * {@link DEFAULT_UNTRUSTED_TOOL_PATTERN} (fetch, http, browse, web, search,
   * read_url, scrape, crawl).
   */
  untrusted?: RegExp | ((toolName: string) => boolean);
  /** Tools untrusted whatever `untrusted` says, e.g. `['read_file']` when files come from users. */
  untrustedTools?: readonly string[];
  /** Detection level. Default `medium`. */
  level?: UntrustedLevel;
  /**
   * `warn` (default): neutralise and report; `block`: replace the whole
   * output with `Tool output withheld: <reason>`; `log`: report only.
   */
  action?: GuardrailAction;
  /** Frame untrusted outputs in `<untrusted_content>` delimiters. Default true. */
  wrap?: boolean;
  /** Image hosts allowed to receive query data. */
  trustedImageHosts?: readonly string[];
}

/** The verdict on a tool's output. */
export interface ToolOutputVerdict extends TextVerdict {
  /** The tool counts as untrusted; when false nothing was checked and `text` is the output as it was. */
  untrusted: boolean;
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
 * const executor = new Executor({ model, tools, safety: { guardrails } });
 * ```
 */
export class Guardrails {
  private readonly input: readonly Guardrail<string>[];
  private readonly output: readonly Guardrail<string>[];
  private readonly tool: readonly Guardrail<ToolScanSubject>[];
  private readonly timeoutMs: number;
  private readonly failClosed: boolean;
  private readonly clock: Clock;
  private readonly isUntrusted: (toolName: string) => boolean;
  private readonly untrustedContent: Guardrail<string>;
  private readonly wrapToolOutput: boolean;
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
    const toolOutput = options.toolOutput ?? {};
    this.isUntrusted = untrustedPredicate(toolOutput);
    this.untrustedContent = untrustedContentGuardrail(toolOutput);
    this.wrapToolOutput = toolOutput.wrap ?? true;
  }

  /** Whether the output stage has guardrails: a run then holds its `token` events until the answer is checked. */
  get checksOutput(): boolean {
    return this.output.length > 0;
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
    // Synchronous while the scans are: a call the built-in scan passes costs no promise, timer or listener.
    return (call, ctx) => {
      const options = this.runOptions('tool', { emit: ctx.emit, signal: ctx.signal });
      const verdict = runStage(this.tool, toolSubject(call), options);
      return verdict instanceof Promise ? verdict.then(gateDecision) : gateDecision(verdict);
    };
  }

  /**
   * Checks what a tool returned before the model reads it. For an untrusted
   * tool, `text` is the output with instruction-like text neutralised (per
   * `action`), framed in `<untrusted_content source="<tool>">` delimiters;
   * when blocked, `Tool output withheld: <reason>`. Findings are `guardrail`
   * events with stage `tool` and rules `untrusted.<rule>`.
   */
  async checkToolOutput(
    toolName: string,
    text: string,
    options: GuardrailCheckOptions = {},
  ): Promise<ToolOutputVerdict> {
    if (!this.isUntrusted(toolName)) return { blocked: false, findings: [], text, untrusted: false };
    const { subject, ...verdict } = await runGuardrails(
      [this.untrustedContent],
      text,
      this.runOptions('tool', options),
    );
    if (verdict.blocked) {
      return {
        ...verdict,
        text: `Tool output withheld: ${verdict.reason ?? 'untrusted content'}`,
        untrusted: true,
      };
    }
    let framed = subject;
    if (this.wrapToolOutput) {
      framed =
        subject.length > UNTRUSTED_SLICE_CHARS
          ? await wrapInSlices(subject, toolName, options.signal)
          : wrapUntrusted(subject, toolName);
    }
    return { ...verdict, text: framed, untrusted: true };
  }

  /**
   * The tool-output stage as a tool-runner filter; agents given these
   * guardrails as `safety.guardrails` apply it to every tool output.
   * Outputs of trusted tools pass untouched; a blocked
   * output is withheld whole, the tool's images and files included.
   */
  outputFilter(): ToolOutputFilter {
    return async (output, call, ctx) => {
      const verdict = await this.checkToolOutput(call.tool.name, output, {
        emit: ctx.emit,
        signal: ctx.signal,
      });
      return verdict.blocked ? { output: verdict.text, withheld: true } : verdict.text;
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

function untrustedPredicate(options: ToolOutputOptions): (toolName: string) => boolean {
  const marked = new Set(options.untrustedTools ?? []);
  const rule = options.untrusted ?? DEFAULT_UNTRUSTED_TOOL_PATTERN;
  if (typeof rule === 'function') return (name) => marked.has(name) || rule(name);
  // A global or sticky RegExp would remember lastIndex between tests.
  const re = new RegExp(rule.source, rule.flags.replace(/[gy]/g, ''));
  return (name) => marked.has(name) || re.test(name);
}

/** The subject tool guardrails see for a ready call. */
export function toolSubject(call: ReadyToolCall): ToolScanSubject {
  return { toolName: call.tool.name, args: call.args, toolCallId: call.call.id };
}

const ALLOW: GateDecision = Object.freeze({ allow: true });

function gateDecision(verdict: GuardrailVerdict): GateDecision {
  return verdict.blocked ? { allow: false, result: blockedToolResult(verdict) } : ALLOW;
}

/** The result a blocked tool call gets: `Tool blocked: <reason>`. */
export function blockedToolResult(verdict: GuardrailVerdict): string {
  return `Tool blocked: ${verdict.reason ?? 'a guardrail refused this call'}`;
}
