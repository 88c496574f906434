/**
 * The concept groups of the agents' options — `modelSettings`, `safety`,
 * `context`, `limits` (with `resilience`, the model layer's
 * `ResilienceOptions`) — shared by `Executor` and `Orchestrator`: one group
 * per concept, one option per idea, the same names on both classes.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { RunBudgetLimits } from '../../core/run-budget.js';
import type { CompressHook } from '../../model/invoke.js';
import type { ModelRequest } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { Guardrails } from '../../safety/guardrails/guardrails.js';
import type { ToolGate, ToolLimiter } from '../../tools/runner.js';

/** Sampling settings sent with every model call of an agent's tool loop. */
export interface ModelSettings {
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Cap on tokens of one reply. Default: the provider's. */
  maxOutputTokens?: number;
}

/**
 * What decides about tool calls and what the model reads: guardrails, human
 * approvals, and the advanced gate seam. A call is scanned first (the
 * guardrails' tool stage), then asked about (`approvals`); an output of an
 * untrusted tool is screened before the model reads it.
 */
export interface SafetyOptions {
  /**
   * The guardrails of every stage. Tool stage: each call's arguments are
   * scanned before it runs (URLs to private or local hosts and non-web
   * schemes, destructive shell or code strings are refused with `Tool
   * blocked: <reason>`), and outputs of untrusted tools (web, fetch,
   * search…) are screened for injected instructions before the model reads
   * them. On the Orchestrator also the input (a blocked task ends the run
   * with a `guardrail` error before any model call) and the final answer (a
   * blocked or redacted answer is replaced; the replacement is what the
   * result and the saved state keep). Default: the built-in tool-argument
   * checks only. `false`: none. The argument scan is skipped when `gate` is
   * given (scan in your gate) or `approvals` scans with guardrails of its own.
   */
  guardrails?: Guardrails | false;
  /**
   * The one place approvals are configured: its gate guards every tool call
   * (after the argument scan) and `resume` delivers answers to it. With a
   * `bus`, questions are asked live (viewer buttons, Redis); without one, a
   * call that needs approval pauses the run, which ends `interrupted`
   * (answer on `result.state`, then `resume`). Default: a gate without a bus
   * that asks only about tools with `needsApproval`.
   */
  approvals?: ApprovalGate;
  /**
   * Advanced: consulted before each ready tool call runs, instead of the
   * `approvals` gate and the guardrails' argument scan (call
   * `guardrails.toolGate()` in yours to keep it).
   */
  gate?: ToolGate;
  /**
   * Also pause on approvals of an `approvals` gate that has a bus (and, on
   * the Orchestrator, on any other question to a human) instead of waiting:
   * the turn's other calls still run, the state is saved, and the run ends
   * `interrupted`. Not needed for the common case: a gate without a bus, or
   * tools' `needsApproval` with no `approvals` at all, always pause.
   * Default false.
   */
  pauseOnInterrupt?: boolean;
}

/** What the Executor needs of a context manager (the context layer's `ContextManager` is one). */
export interface ConversationContext {
  prepareRequest(
    request: ModelRequest,
    info: { signal?: AbortSignal; emit?: Emitter },
  ): Promise<ModelRequest>;
  /** Given to the model invoker for context-length recovery. */
  compressHook?: CompressHook;
}

/** What {@link ContextOptions.prepareRequest} gets besides the request. */
export interface PrepareRequestInfo {
  /** Iterations used before this call. */
  iteration: number;
  signal: AbortSignal;
  emit: Emitter;
}

/** What the model sees of a conversation: compression, request rewriting, tool-output size. */
export interface ContextOptions {
  /**
   * Context management, one manager per execution (conversation): counts
   * each request incrementally, compresses it past the threshold, and
   * shrinks a request a provider rejected as too long.
   * `contextPerConversation({ model, summarizer })` makes one. Default:
   * compression at the seeds' threshold (half the window), the agent's model
   * summarising, set up only once a conversation grows near it. `false`:
   * none (a context-length error then fails the call).
   */
  manager?: (() => ConversationContext) | false;
  /** Called before each model call with the outgoing request (after `manager`); may return a replacement. */
  prepareRequest?: (request: ModelRequest, info: PrepareRequestInfo) => ModelRequest | Promise<ModelRequest>;
  /** Tool output longer than this is truncated for the model. Default: the tool runner's. */
  maxOutputChars?: number;
}

/** How far one run may go: turns, time, spend, tool calls. Every limit has the seeds' default. */
export interface LimitOptions {
  /** Model turns allowed per execution (silent re-asks excluded). Default 10. */
  maxIterations?: number;
  /** Wall-clock budget per execution, on the runtime's clock. Default 270 000 ms. */
  timeoutMs?: number;
  /** Limits of each run (tokens, cost, tool calls, wall clock); see docs/cost.md. Default none. */
  budget?: RunBudgetLimits;
  /** Parallel-safe tool calls of one turn run at once. Default 8 (the tool runner's). */
  toolConcurrency?: number;
  /**
   * A cap on tool calls across every run of this agent (and whatever else
   * shares it), e.g. `pLimit(32)`. Default: none — runs never wait on each other.
   */
  toolLimiter?: ToolLimiter;
  /** Continuation requests after a reply cut by the length limit, and rollbacks of one with tool calls. Default 2. */
  maxLengthContinuations?: number;
  /** Consecutive turns calling unknown tools before the run stops. Default 3. */
  maxInvalidToolTurns?: number;
  /** Re-asks after an answer that does not match `output`, before `RunError('invalid_output')`. Default 2. */
  maxOutputReasks?: number;
}
