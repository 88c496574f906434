/**
 * Options and result of the {@link Executor}, with the seeds' defaults.
 * @module
 */

import type { TandemError } from '../../core/errors.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { PriceTable } from '../../core/pricing.js';
import type { RunBudgetLimits } from '../../core/run-budget.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { ResilienceOptions } from '../../model/resilience/invoker-options.js';
import type { Schema } from '../../model/schema.js';
import type { ChatModel, FinishReason, SystemPart, ToolSpec } from '../../model/types.js';
import type { Interruption } from '../../safety/approvals/interruption.js';
import type { MemoryOptions } from '../../state/long-term-memory.js';
import type { PausedState } from '../../state/paused-state.js';
import type { SessionReport } from '../../state/session-run.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/types.js';
import type { ContextOptions, LimitOptions, ModelSettings, SafetyOptions } from './option-groups.js';
import type { ReflectionOptions, ReflectionSettings } from './reflection.js';

/** Default model turns of one execution. */
export const DEFAULT_MAX_ITERATIONS = 10;

/** Default wall-clock budget of one execution: 270 s. */
export const DEFAULT_EXECUTOR_TIMEOUT_MS = 270_000;

/** Silent re-asks after a reply without text or tool calls (before any tool ran). */
export const MAX_EMPTY_REPLY_RETRIES = 2;

/**
 * Re-asks after a reply whose tool-call arguments were not a JSON object: the
 * turn is not kept, its calls' events are emitted.
 */
export const MAX_INVALID_JSON_RETRIES = 2;

/**
 * Options of an {@link Executor}: what it is (model, tools, instructions,
 * output), then one group per concept — `resilience`, `safety`, `context`,
 * `limits`, `modelSettings` — the same groups as the Orchestrator's. Every
 * limit has the seeds' default. `T` is the type of the result's `object`,
 * read from `output` (any schema when not given).
 *
 * ```ts
 * new Executor({ model, tools, limits: { maxIterations: 5 }, resilience: { fallbacks: [backup] } });
 * ```
 */
export interface ExecutorOptions<T = any> {
  /** The model. Calls go through the resilient invoker (see `resilience`). */
  model: ChatModel;
  /** The tools the model may call. */
  tools?: Tool[] | ToolRegistry;
  /**
   * The system prompt, sent as `request.system`, never inside a message: a
   * string, parts (a cached prefix and a dynamic suffix), or a prompt source
   * such as the context layer's `SystemPromptBuilder`, built once per
   * execution with the executor's tools.
   */
  instructions?: string | SystemPart[] | SystemPromptSource;
  /**
   * The answer is an object of this schema (zod 4, any Standard Schema, or
   * `jsonSchema()`): the result carries it as `object`, typed from the
   * schema, and its JSON as `output`. Asked for in the model's native mode
   * where it has one (docs/structured-output.md).
   */
  output?: Schema<T>;
  /** Agent name stamped on events. Default `'executor'`. */
  name?: string;
  /** Passed to tools in their context. */
  sandbox?: Sandbox;
  /** Clock, randomness, ids and tracing. Default: the real ones, no tracing. */
  runtime?: Partial<Runtime>;
  /** Stream model replies (emitting `token` / `reasoning`). Default true. */
  stream?: boolean;
  /**
   * Prices of the models (USD per million tokens), merged over
   * `DEFAULT_PRICES`: `usage` events and results carry `costUsd`. `false`:
   * no cost accounting. Applies to runs started with `run()`.
   */
  prices?: PriceTable | false;
  /**
   * Have a cheap model judge an answer reached with tools before it is
   * returned; a `RETRY` verdict sends its note back as feedback and the loop
   * goes on (docs/executor.md#reflection). Off when absent; the seed had it on.
   */
  reflection?: ReflectionOptions;
  /** Sampling settings of every model call (temperature, output tokens). */
  modelSettings?: ModelSettings;
  /**
   * How models are called: retries with backoff (on by default, the seeds'
   * numbers, honouring `Retry-After`; `retry: false` for one attempt),
   * `fallbacks` in order, or your own `invoker` factory (docs/resilience.md).
   */
  resilience?: ResilienceOptions;
  /** Guardrails, approvals and the advanced tool gate (docs/approvals.md, docs/guardrails.md). */
  safety?: SafetyOptions;
  /** Context management (compression on by default), request rewriting and tool-output size (docs/context.md). */
  context?: ContextOptions;
  /** Iterations, wall clock, run budget, tool concurrency and re-ask counts. */
  limits?: LimitOptions;
  /**
   * Long-term memory of the runs given a `resourceId`: the user's working
   * memory in the system prompt (and a tool to update it), and recall of
   * earlier messages of the user's other threads (docs/memory.md).
   */
  memory?: MemoryOptions;
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
  /** Limits of this run (with `run()`), over the executor's `limits.budget`. */
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
  /**
   * With a `session` (docs/sessions.md): the thread and the messages this run
   * appended, and the first `SessionError` (then the messages not appended
   * are not in the thread; nothing half-written is).
   */
  session?: SessionReport;
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
