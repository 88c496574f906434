/**
 * Options and result of the {@link Executor}, with the seeds' defaults.
 * @module
 */

import { ConfigError, type TandemError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { PriceTable } from '../../core/pricing.js';
import type { RunBudgetLimits } from '../../core/run-budget.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { CompressHook, ModelInvoker } from '../../model/invoke.js';
import type { RetryOptions } from '../../model/resilience/retry-policy.js';
import type { Schema } from '../../model/schema.js';
import type { ChatModel, FinishReason, ModelRequest, SystemPart, ToolSpec } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import type { Guardrails } from '../../safety/guardrails/guardrails.js';
import type { PausedState } from '../../state/paused-state.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolGate, ToolLimiter, ToolOutputFilter } from '../../tools/runner.js';
import type { Tool } from '../../tools/types.js';
import { type ReflectionOptions, type ReflectionSettings, resolveReflection } from './reflection.js';
import { DEFAULT_OUTPUT_REASKS } from './structured-output.js';

/** Capability tier of an agent; sets the default iteration budget. */
export type ExecutorTier = 'flash' | 'pro' | 'max';

/** Default iteration budget per tier (the seeds' LITE/PRO/MAX profiles). */
export const TIER_MAX_ITERATIONS: Readonly<Record<ExecutorTier, number>> = { flash: 3, pro: 5, max: 10 };

/** Default wall-clock budget of one execution: 270 s. */
export const DEFAULT_EXECUTOR_TIMEOUT_MS = 270_000;

/** Silent re-asks after a reply without text or tool calls (before any tool ran). */
export const MAX_EMPTY_REPLY_RETRIES = 2;

/**
 * Re-asks after a reply whose tool-call arguments were not a JSON object: the
 * turn is not kept, its calls' events are emitted.
 */
export const MAX_INVALID_JSON_RETRIES = 2;

/** What {@link ExecutorOptions.prepareRequest} gets besides the request. */
export interface PrepareRequestInfo {
  /** Iterations used before this call. */
  iteration: number;
  signal: AbortSignal;
  emit: Emitter;
}

/**
 * Options of an {@link Executor}. Every limit has the seeds' default. `T` is
 * the type of the result's `object`, read from `output` (any schema when not given).
 */
export interface ExecutorOptions<T = any> {
  /** The model. Calls go through {@link ExecutorOptions.invoker} when given. */
  model: ChatModel;
  /**
   * Backoff of failed model calls: retryable failures (429, 5xx, timeouts,
   * resets, stalled streams) are retried with the seeds' numbers, honouring
   * `Retry-After` (docs/resilience.md). `false`: one attempt per model.
   * Default: on, `DEFAULT_RETRY_POLICY`.
   */
  retry?: RetryOptions | false;
  /** Models to fall back to, in order, when `model` fails for good. Default none. */
  fallbacks?: ChatModel[];
  /**
   * Advanced: builds the invoker that calls a model, replacing the default
   * `createResilientInvoker({ models: [model, ...fallbacks], retry, runtime })`
   * (`retry` and `fallbacks` are then yours to apply). The same form as the
   * Orchestrator's `invoker`.
   */
  invoker?: (model: ChatModel) => ModelInvoker;
  /** The tools the model may call. */
  tools?: Tool[] | ToolRegistry;
  /**
   * The system prompt, sent as `request.system`, never inside a message: a
   * string, parts (a cached prefix and a dynamic suffix), or a prompt source
   * such as the context layer's `SystemPromptBuilder`, built once per
   * execution with the executor's tools.
   */
  instructions?: string | SystemPart[] | SystemPromptSource;
  /** Agent name stamped on events. Default `'executor'`. */
  name?: string;
  /** Sets the default of `maxIterations`: flash 3, pro 5, max 10. Default `'max'`. */
  tier?: ExecutorTier;
  /** Model turns allowed per execution (silent re-asks excluded). Default from `tier`. */
  maxIterations?: number;
  /** Wall-clock budget per execution, on the runtime's clock. Default 270 000 ms. */
  timeoutMs?: number;
  /** Stream model replies (emitting `token` / `reasoning`). Default true. */
  stream?: boolean;
  /** Parallel-safe tool calls of one turn run at once. Default 8 (the tool runner's). */
  toolConcurrency?: number;
  /**
   * A cap on tool calls across every run of this executor (and whatever else
   * shares it), e.g. `pLimit(32)`. Default: none — runs never wait on each other.
   */
  toolLimiter?: ToolLimiter;
  /** Tool output longer than this is truncated for the model. Default: the tool runner's. */
  maxOutputChars?: number;
  /** Continuation requests after a reply cut by the length limit, and rollbacks of one with tool calls. Default 2. */
  maxLengthContinuations?: number;
  /** Consecutive turns calling unknown tools before the run stops. Default 3. */
  maxInvalidToolTurns?: number;
  /** Clock, randomness, ids and tracing. Default: the real ones, no tracing. */
  runtime?: Partial<Runtime>;
  /**
   * Prices of the models (USD per million tokens), merged over
   * `DEFAULT_PRICES`: `usage` events and results carry `costUsd`. `false`:
   * no cost accounting. Applies to runs started with `run()`.
   */
  prices?: PriceTable | false;
  /** Limits of each run started with `run()` (tokens, cost, tool calls, wall clock); see docs/cost.md. */
  budget?: RunBudgetLimits;
  /**
   * The one place approvals are configured: with a `bus`, questions are asked
   * live; without one, a call that needs approval pauses the run, which ends
   * `interrupted` (answer on `result.state`, then `resume`). Default: a gate
   * without a bus that asks only about tools with `needsApproval`.
   */
  approvals?: ApprovalGate;
  /** Advanced: consulted before each ready tool call runs, instead of `approvals.gate`. */
  gate?: ToolGate;
  /**
   * Approvals do not wait (the gate is asked to defer them; an `ApprovalGate`
   * emits each question as an `interrupt` event): the turn's other calls
   * still run, the results so far are checkpointed, and the execution ends
   * with a `RunError` of kind `interrupted`. Resuming the checkpointed
   * conversation with the answers given to the gate runs the deferred calls
   * only. The Orchestrator sets it under `pauseOnInterrupt`. Default false.
   */
  deferApprovals?: boolean;
  /**
   * Rewrites each successful tool output before the model sees it, e.g.
   * `guardrails.outputFilter()` to neutralise prompt injections in fetched
   * pages. The model never sees the unfiltered output.
   */
  outputFilter?: ToolOutputFilter;
  /**
   * Tool-argument guardrails, checked before every tool call (and before any
   * approval): URLs to private or local hosts and non-web schemes, and
   * destructive shell or code strings, are refused with `Tool blocked:
   * <reason>`. Default: the built-in checks; a `Guardrails`: its tool stage;
   * `false`: none. Not applied when `gate` is given (scan in your gate),
   * nor when `approvals` has guardrails of its own (it scans first).
   */
  guardrails?: Guardrails | false;
  /** Passed to tools in their context. */
  sandbox?: Sandbox;
  temperature?: number;
  maxOutputTokens?: number;
  /**
   * Context management, one per execution (conversation): counts each request
   * incrementally, compresses it past the threshold, and shrinks a request a
   * provider rejected as too long. `contextPerConversation({ model, summarizer })`
   * makes one. Default: compression at the seeds' threshold (half the
   * window), `model` summarising, set up only once a conversation grows near
   * it. `false`: none (a context-length error then fails the call).
   */
  context?: (() => ConversationContext) | false;
  /** Called before each model call with the outgoing request (after `context`); may return a replacement. */
  prepareRequest?: (request: ModelRequest, info: PrepareRequestInfo) => ModelRequest | Promise<ModelRequest>;
  /**
   * Have a cheap model judge an answer reached with tools before it is
   * returned; a `RETRY` verdict sends its note back as feedback and the loop
   * goes on (docs/executor.md#reflection). Off when absent; the seed had it on.
   */
  reflection?: ReflectionOptions;
  /**
   * The answer is an object of this schema (zod 4, any Standard Schema, or
   * `jsonSchema()`): the result carries it as `object`, typed from the
   * schema, and its JSON as `output`. Asked for in the model's native mode
   * where it has one (docs/structured-output.md).
   */
  output?: Schema<T>;
  /** Re-asks after an answer that does not match `output`, before `RunError('invalid_output')`. Default 2. */
  maxOutputReasks?: number;
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

/** Builds a system prompt for an execution (the context layer's `SystemPromptBuilder` is one). */
export interface SystemPromptSource {
  build(input: { tools: readonly ToolSpec[] }): Promise<{ parts: SystemPart[] }>;
}

/** Options of one execution. */
export interface ExecuteOptions {
  /** Aborts the model call and every tool; the execution ends `failed` with an `AbortError`. */
  signal?: AbortSignal;
  /** Where events go (the parent's scoped emitter, e.g. the orchestrator's). */
  emit?: Emitter;
  /** Earlier conversation, before the input. Not modified. */
  history?: Message[];
  /** Replaces the executor's `instructions` for this execution. */
  system?: string;
  /** Plan step this execution works on; stamped on events. */
  stepId?: string;
  /**
   * Called (and awaited) whenever the conversation reaches a state worth
   * saving: after a model turn with tool calls is accepted, and after its
   * tool results are appended. A checkpoint written here lets a resumed run
   * continue without re-executing the tools whose results it recorded.
   */
  onCheckpoint?: (messages: readonly Message[]) => void | Promise<void>;
  /** Limits of this run (with `run()`), over the executor's `budget`. */
  budget?: RunBudgetLimits;
  /** The answer is an object of this schema, over the executor's `output`. */
  output?: Schema;
}

/** How an execution or a run ended; see {@link ExecutorResult.status}. */
export type ExecutionStatus = 'success' | 'partial' | 'interrupted' | 'failed';

/** The outcome of an execution. */
export interface ExecutorResult {
  /** The final answer; built from the last tool results when the model ended without text. */
  output: string;
  /**
   * How the execution ended (docs/results.md): `success`; `partial` when a
   * stop cut the answer short (run budget, wall clock, iterations, length
   * limit); `interrupted` when calls wait for a human (`interruptions`);
   * `failed` when it could not go on (the model failed, it was aborted, …).
   * Every status but `success` comes with `error`.
   */
  status: ExecutionStatus;
  /** The whole conversation: history, input and everything this execution added. */
  messages: Message[];
  /** Messages this execution added after the input. */
  newMessages: Message[];
  usage: Usage;
  /** Model turns used. */
  iterations: number;
  /** Tool calls answered (executed or refused with an error result). */
  toolCalls: number;
  finishReason: FinishReason;
  /**
   * Why the result is not a success: a `RunError` (kinds `budget`, `timeout`,
   * `max_iterations`, `length`, `interrupted`, `model`, `invalid_tool_calls`,
   * `invalid_output`, `internal`), an `AbortError`, or another typed error.
   */
  error?: TandemError;
  /** The calls waiting for a human, when `status` is `interrupted`. */
  interruptions?: Interruption[];
  /** The answer as an object of the output schema (then `output` is its JSON); absent without one. */
  object?: unknown;
  /**
   * With status `interrupted` (from `run`): the execution's state. Answer with
   * `state.approve(id)` / `state.reject(id, message)`, then
   * `executor.resume(state)` — now, or in another process after
   * `JSON.stringify(state)`.
   */
  state?: PausedState;
}

/** The result of an execution whose output schema makes objects of type `T`. */
export type StructuredResult<T> = ExecutorResult & { object: T };

/** The result of an {@link Executor} with `output` of type `T`: structured, or plain when `T` is `undefined`. */
export type ExecutorResultOf<T> = [T] extends [undefined] ? ExecutorResult : StructuredResult<T>;

/** Limits after defaults, validated. */
export interface ExecutorLimits {
  maxIterations: number;
  timeoutMs: number;
  maxLengthContinuations: number;
  maxInvalidToolTurns: number;
  maxOutputReasks: number;
  /** Present when reflection is on. */
  reflection?: ReflectionSettings;
}

/**
 * Applies defaults and validates the limits.
 * @throws ConfigError for a missing model, an unknown tier, a limit out of range or invalid `reflection` options.
 */
export function resolveLimits<T>(options: ExecutorOptions<T>): ExecutorLimits {
  if (!options?.model) throw new ConfigError('Executor: `model` is required');
  const tier = options.tier ?? 'max';
  const tierDefault = TIER_MAX_ITERATIONS[tier];
  if (tierDefault === undefined) throw new ConfigError(`Executor: unknown tier "${tier}"`);
  const limits: ExecutorLimits = {
    maxIterations: options.maxIterations ?? tierDefault,
    timeoutMs: options.timeoutMs ?? DEFAULT_EXECUTOR_TIMEOUT_MS,
    maxLengthContinuations: options.maxLengthContinuations ?? 2,
    maxInvalidToolTurns: options.maxInvalidToolTurns ?? 3,
    maxOutputReasks: options.maxOutputReasks ?? DEFAULT_OUTPUT_REASKS,
  };
  requireInteger('maxIterations', limits.maxIterations, 1);
  requireInteger('maxLengthContinuations', limits.maxLengthContinuations, 0);
  requireInteger('maxInvalidToolTurns', limits.maxInvalidToolTurns, 1);
  requireInteger('maxOutputReasks', limits.maxOutputReasks, 0);
  if (!(limits.timeoutMs > 0)) throw new ConfigError('Executor: `timeoutMs` must be a positive number');
  if (options.reflection) limits.reflection = resolveReflection(options.reflection);
  return limits;
}

function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`Executor: \`${name}\` must be an integer ≥ ${min}, got ${value}`);
  }
}
