/**
 * The typed event stream of a run. Every event is
 * `{ type, runId, seq, at, agent?, stepId?, parentId?, ...payload }`; `type`
 * is snake_case, as the seeds stream events to browsers.
 *
 * Ordering invariants (tested): `seq` strictly increases per run; every
 * `tool_call` is followed by exactly one `tool_result` with the same id; every
 * `stage` with status `running` is closed by `completed` or `failed`; a run
 * ends with exactly one `complete` or `error`, and nothing follows it.
 * @module
 */
import type { MediaSummary } from './media.js';
import type { SpanRequest, TraceSpan } from './span.js';
import type { Usage } from './usage.js';

/** Fields every event carries. */
export interface EventBase {
  runId: string;
  /** Strictly increasing per run, from 1. */
  seq: number;
  /** Milliseconds since the epoch, from the run's clock. */
  at: number;
  /** Name of the agent that produced the event. */
  agent?: string;
  /** Plan step the event belongs to. */
  stepId?: string;
  /** Id of the enclosing operation (e.g. the tool call that started a skill). */
  parentId?: string;
}

/** Status of a stage or step. */
export type StageStatus = 'running' | 'completed' | 'failed';

/** A plan step as events show it. */
export interface PlanStepView {
  id: string;
  description: string;
  dependsOn: string[];
  status: 'pending' | 'running' | 'completed' | 'failed' | 'skipped';
}

/** An error as events carry it: plain data. */
export interface ErrorInfo {
  kind: string;
  message: string;
}

/** A pending question to a human. */
export interface InterruptView {
  id: string;
  kind: 'approval' | 'decision' | 'input';
  title: string;
  message?: string;
  options?: string[];
  toolName?: string;
  toolCallId?: string;
  args?: unknown;
  timeoutMs: number;
  defaultAction: string;
}

/** Payload of each event type. */
export interface EventPayloads {
  /** `input`: the request's text (images and files as placeholders); the ids the caller gave `run()`. */
  run_started: { input: string; resourceId?: string; threadId?: string };
  stage: { name: string; status: StageStatus; detail?: string };
  routing: {
    agent: string;
    confidence: number;
    reason: string;
    method: 'explicit' | 'heuristic' | 'llm' | 'default';
    lowConfidence?: boolean;
    /** Shown to the user with a low-confidence route. */
    message?: string;
    complexity?: 'simple' | 'complex';
  };
  plan_overview: { title: string; summary: string; steps: PlanStepView[] };
  plan_step_started: { step: PlanStepView; attempt: number; mode: 'normal' | 'enhanced' | 'takeover' };
  plan_step_completed: { output: string; completed: number; total: number };
  plan_step_failed: { error: ErrorInfo; willRetry: boolean; skipped?: boolean };
  plan_revised: { reason: string; revision: number; steps: PlanStepView[] };
  todo_update: { content: string; checked: number; total: number };
  token: { delta: string };
  reasoning: { delta: string };
  /**
   * The structured answer so far, while it streams (a run with an output
   * schema): the JSON parsed from the text received, completed where it was
   * cut. Not yet validated; the result's `object` is.
   */
  partial_object: { object: unknown };
  tool_call: { id: string; name: string; args: unknown; requestedName?: string };
  tool_result: {
    id: string;
    name: string;
    /** What the model saw of the output: cut past the tool's limit when `truncated`. */
    output: string;
    isError: boolean;
    durationMs: number;
    truncated?: boolean;
    /** Length of the whole output in UTF-16 code units, when `truncated`. */
    outputChars?: number;
    filtered?: boolean;
    /** Images and files the tool returned: media types and sizes, never the bytes. */
    attachments?: MediaSummary[];
  };
  /**
   * How far a running tool call got (an MCP server's `notifications/progress`,
   * an MCP task's status): between the call's `tool_call` and `tool_result`,
   * with `parentId` = `id`. `progress` rises; `total` when known.
   */
  tool_progress: { id: string; name: string; progress?: number; total?: number; message?: string };
  /**
   * A browser tool acted on its page (`tandem-agents/browser`), with
   * `parentId` = the tool call: what it did, the page's URL afterwards, and
   * the requests the network rules refused meanwhile.
   */
  browser_action: {
    action: string;
    url: string;
    target?: string;
    ok: boolean;
    blocked?: { url: string; rule: string }[];
  };
  /**
   * A frame of the browser page's live view (a CDP screencast) while a
   * browser tool runs: `data` is the base64 image of type `mediaType`.
   */
  browser_stream: { mediaType: string; data: string; width: number; height: number; url: string };
  /** A sandbox tool started a command (`parentId` = the tool call); its output follows live. */
  terminal_command: { id: string; command: string; language?: string };
  /** Standard output of a running command, as printed: coalesced, bounded by the tool's output cap. */
  terminal_output: { id: string; text: string };
  /** Standard error of a running command, as printed. */
  terminal_error: { id: string; text: string };
  /** The command ended; its whole output is in the call's `tool_result`. */
  terminal_complete: {
    id: string;
    exitCode: number | null;
    timedOut: boolean;
    durationMs: number;
    truncated: boolean;
  };
  /** A tool created or changed files of the sandbox workspace. */
  workspace_update: { paths: string[]; change: 'write' | 'edit' | 'patch' };
  handoff: { from: string; to: string; task: string; accepted: boolean; reason?: string };
  skill_output: { skillId: string; output: unknown; depth: number };
  source: { title: string; url: string; snippet?: string };
  interrupt: { interrupt: InterruptView };
  interrupt_response: { interruptId: string; action: string; value?: unknown; timedOut: boolean };
  guardrail: {
    stage: 'input' | 'output' | 'tool';
    rule: string;
    action: 'block' | 'warn' | 'log';
    blocked: boolean;
    reason: string;
  };
  retry: { model: string; attempt: number; delayMs: number; error: ErrorInfo };
  fallback: { from: string; to: string; error: ErrorInfo };
  compression: {
    tokensBefore: number;
    tokensAfter: number;
    messagesBefore: number;
    messagesAfter: number;
    method: 'prune' | 'summary' | 'truncate';
    reason?: string;
    /**
     * Set when a result would not have made the request smaller: `truncate`,
     * a summary gave way to this truncation; `unchanged`, nothing was smaller
     * and the request is sent as it was (`method` names the last one tried).
     */
    fallback?: 'truncate' | 'unchanged';
  };
  /**
   * One model call (or one planner operation, failed attempts included):
   * `usage` is its own, `total` the run's so far — the run's event bus
   * stamps it, whichever component emitted the event.
   */
  usage: { model: string; usage: Usage; total: Usage };
  /**
   * The conversation passed 70% (`warning`) or 90% (`critical`) of the
   * model's context window, for people to see (the model is not told).
   * `windowSource` says where the window's size came from; `assumed` means
   * nothing was known and 128k was taken.
   */
  context_pressure: {
    tokens: number;
    window: number;
    ratio: number;
    level: 'warning' | 'critical';
    windowSource: 'option' | 'model_info' | 'known_model' | 'provider_error' | 'assumed';
  };
  /** A run budget's pressure (the most used share of any limit) reached the warning level, or 1: the run stops. */
  budget: {
    resource: 'tokens' | 'cost' | 'tool_calls' | 'wall_clock';
    used: number;
    limit: number;
    pressure: number;
    action: 'warn' | 'stop';
  };
  /**
   * The run has a cost limit (`budget.maxCostUsd`) but no price for these
   * models (ids), so what they spend is not counted against it. Emitted
   * right after `run_started`; with `budget.onUnpricedModel: 'fail'` the run
   * does not start instead.
   */
  unpriced_models: { models: string[]; maxCostUsd: number };
  /**
   * Long-term memory at work: `recall` (earlier messages of the user's other
   * threads put into the prompt, `count` of them), `remember` (`count`
   * messages of the run embedded and stored), `working_memory` (the model
   * replaced the user's working memory, now at `version`). With `error`, the
   * operation failed and the run went on without it.
   */
  memory: {
    op: 'recall' | 'remember' | 'working_memory';
    count?: number;
    version?: number;
    error?: ErrorInfo;
  };
  parallel_start: { ids: string[] };
  parallel_complete: { ids: string[]; durationMs: number };
  /** The run's end, with its result's status; `error` says why when it is not `success`. */
  complete: {
    output: string;
    status: 'success' | 'partial' | 'failed' | 'interrupted';
    usage: Usage;
    error?: ErrorInfo;
  };
  error: { error: ErrorInfo; usage?: Usage };
}

/** Every event type name. */
export type EventType = keyof EventPayloads;

/** The event of type `T` (or the union of all events). */
export type TandemEvent<T extends EventType = EventType> = {
  [K in T]: EventBase & { type: K } & EventPayloads[K];
}[T];

/** A listener of events of type `T` (`run.on(type, listener)`, `bus.on(type, listener)`). */
export type EventListener<T extends EventType> = (event: TandemEvent<T>) => void;

/** Tags a scoped emitter stamps on every event. */
export interface EventTags {
  agent?: string;
  stepId?: string;
  parentId?: string;
}

/** What producers call to emit. Implemented by the EventBus and its scopes. */
export interface Emitter {
  emit<T extends EventType>(type: T, payload: EventPayloads[T]): void;
  /** An emitter that stamps `tags` (merged over this one's) on every event. */
  scope(tags: EventTags): Emitter;
  /**
   * Resolves when slow async-iterator consumers have caught up, or returns
   * `undefined` when none lags (the common case: no promise allocated).
   */
  backpressure(): Promise<void> | undefined;
  /** The run's id. */
  readonly runId: string;
  /**
   * Runs `fn` inside a span of the run's {@link Tracing}, tagged like this
   * emitter's events. Absent (or without tracing, `fn` runs as is).
   */
  span?<T>(request: SpanRequest, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
}

/** The terminal event types: a run ends with exactly one. */
export function isTerminalEvent(event: TandemEvent): boolean {
  return event.type === 'complete' || event.type === 'error';
}
