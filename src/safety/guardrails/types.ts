/**
 * The guardrail contract: a named scan of one stage's subject (the user's
 * input, the final output, or a tool call) that reports findings, each with
 * an action.
 * @module
 */

/** What happens when a guardrail finds something: refuse, flag, or only record. */
export type GuardrailAction = 'block' | 'warn' | 'log';

/** Where a guardrail runs. */
export type GuardrailStage = 'input' | 'output' | 'tool';

/** One thing a guardrail found. */
export interface GuardrailFinding {
  /** Stable machine-readable rule id, e.g. `prompt_injection`, `pii.email`, `url.private_address`. */
  rule: string;
  /** Human-readable explanation; a blocked tool call's result quotes it. */
  reason: string;
  /** Overrides the guardrail's action for this finding. */
  action?: GuardrailAction;
}

/** What a scan returns when it also rewrites its subject. */
export interface GuardrailCheck {
  findings: GuardrailFinding[];
  /**
   * Text stages only: the subject rewritten (e.g. with PII redacted). Later
   * guardrails scan the rewritten text, and it is what the caller keeps
   * unless the action is `log` (observe only). Ignored for tool calls, whose
   * arguments a gate cannot change.
   */
  text?: string;
}

/** What {@link Guardrail.scan} gets besides its subject. */
export interface GuardrailScanContext {
  /** Aborts when the scan times out or the run is aborted; a slow detector should honour it. */
  signal: AbortSignal;
}

/**
 * A guardrail for subjects of type `T` (`string` for input and output,
 * {@link ToolScanSubject} for tool calls).
 *
 * ```ts
 * const noTickets: Guardrail<string> = {
 *   name: 'no-ticket-ids',
 *   action: 'warn',
 *   scan: (text) => (/TCK-\d+/.test(text) ? [{ rule: 'ticket_id', reason: 'mentions a ticket id' }] : []),
 * };
 * ```
 */
export interface Guardrail<T> {
  /** Shown in timeout and error reports. */
  readonly name: string;
  /** Action of findings that name none. Default `block`. */
  readonly action?: GuardrailAction;
  /** Per-scan budget overriding the runner's (default 500 ms). */
  readonly timeoutMs?: number;
  /**
   * Whether a scan of this guardrail that times out or throws blocks,
   * overriding the stage's `failClosed`. A guardrail whose silence would let
   * an attack through (the tool-argument scan waiting on DNS) sets it.
   */
  readonly failClosed?: boolean;
  scan(
    subject: T,
    ctx: GuardrailScanContext,
  ):
    | GuardrailFinding[]
    | GuardrailCheck
    | undefined
    | Promise<GuardrailFinding[] | GuardrailCheck | undefined>;
}

/** A tool call as tool guardrails see it. */
export interface ToolScanSubject {
  /** The tool's canonical name. */
  toolName: string;
  /** Arguments after validation. */
  args: unknown;
  toolCallId: string;
}

/** A finding as reported: the action applied and whether it blocked. */
export interface ReportedFinding extends GuardrailFinding {
  action: GuardrailAction;
  blocked: boolean;
  /** Name of the guardrail that reported it. */
  guardrail: string;
}

/** The verdict of one stage's guardrails. */
export interface GuardrailVerdict {
  /** Some finding with action `block` (or a timeout with `failClosed`). */
  blocked: boolean;
  /** Everything reported, in order; a `guardrail` event was emitted for each. */
  findings: ReportedFinding[];
  /** The blocking finding's reason, when blocked. */
  reason?: string;
}

/** The verdict on a text subject. */
export interface TextVerdict extends GuardrailVerdict {
  /**
   * The text to keep: the input (possibly redacted) when allowed; for a
   * blocked output, the configured replacement message — store this, not the
   * original, in the transcript.
   */
  text: string;
}
