/**
 * One streamed model call under the resilience rules: parts are delivered as
 * they arrive, a stream silent for too long is aborted (stale detection), and
 * a failure after visible delivery is never retried behind the caller's back.
 * @module
 */
import { ConfigError, ModelError } from '../../core/errors.js';
import type { Clock } from '../../core/seams.js';
import { emitPart, type InvokeOptions } from '../invoke.js';
import { StreamAggregator } from '../stream.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart } from '../types.js';
import { StreamInterruptedError } from './errors.js';
import { asModelError, definedOnly } from './retry-policy.js';

/** A longer stale timeout for prompts above `minTokens` estimated tokens. */
export interface LargePromptTimeout {
  minTokens: number;
  timeoutMs: number;
}

/** Streaming options of the resilient invoker. */
export interface StreamOptions {
  /** Stream failures (before delivery) after which the model is called with `generate` (default 2). */
  maxFailures?: number;
  /** Abort an attempt after this long without a chunk; 0 or `Infinity` turns detection off (default 180 000 ms). Always off for `model.info.local`. */
  staleTimeoutMs?: number;
  /** Longer timeouts for large prompts (default: >100k tokens → 300 s, >50k → 240 s; never shorter than `staleTimeoutMs`). */
  largePromptTimeouts?: LargePromptTimeout[];
}

/** {@link StreamOptions} with every default filled in. */
export interface StreamPolicy {
  readonly maxFailures: number;
  readonly staleTimeoutMs: number;
  /** Sorted by `minTokens`, largest first. */
  readonly largePromptTimeouts: readonly LargePromptTimeout[];
}

/** The seed's numbers (hermes `HERMES_STREAM_STALE_TIMEOUT` and its large-prompt bumps). */
export const DEFAULT_STREAM_POLICY: StreamPolicy = Object.freeze({
  maxFailures: 2,
  staleTimeoutMs: 180_000,
  largePromptTimeouts: Object.freeze([
    { minTokens: 100_000, timeoutMs: 300_000 },
    { minTokens: 50_000, timeoutMs: 240_000 },
  ]),
});

/** Fills defaults and rejects invalid numbers with a {@link ConfigError}. */
export function resolveStreamPolicy(options: StreamOptions = {}): StreamPolicy {
  const policy = { ...DEFAULT_STREAM_POLICY, ...definedOnly(options) };
  if (!Number.isInteger(policy.maxFailures) || policy.maxFailures < 0) {
    throw new ConfigError(`stream.maxFailures must be a non-negative integer, got ${policy.maxFailures}`);
  }
  if (Number.isNaN(policy.staleTimeoutMs) || policy.staleTimeoutMs < 0) {
    throw new ConfigError(`stream.staleTimeoutMs must be >= 0, got ${policy.staleTimeoutMs}`);
  }
  const largePromptTimeouts = [...policy.largePromptTimeouts].sort((a, b) => b.minTokens - a.minTokens);
  return Object.freeze({ ...policy, largePromptTimeouts });
}

/** The stale timeout for `model`: 0 (off) for local models or when disabled. */
export function staleTimeoutFor(model: ChatModel, policy: StreamPolicy): number {
  if (model.info?.local || !Number.isFinite(policy.staleTimeoutMs)) return 0;
  return policy.staleTimeoutMs;
}

/** Rough prompt size (characters / 4), as the seed estimates it; only computed once a stream is already slow. */
export function estimatePromptTokens(request: ModelRequest): number {
  let chars = 0;
  const system = request.system;
  if (typeof system === 'string') chars += system.length;
  else if (system) for (const part of system) chars += part.text.length;
  for (const message of request.messages) {
    if (typeof message.content === 'string') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool_call') chars += part.name.length + part.arguments.length;
      else if (part.type === 'tool_result') chars += part.content.length;
      else chars += part.text.length;
    }
  }
  return Math.ceil(chars / 4);
}

/** A model known to stream. */
export type StreamingModel = ChatModel & { stream: NonNullable<ChatModel['stream']> };

/**
 * Streams one attempt, emitting `token` / `reasoning` events and calling
 * `onPart` per part, honouring `emit.backpressure()`. Before anything visible
 * was delivered a failure is rethrown as is (the invoker may retry it); after,
 * it becomes a {@link StreamInterruptedError}. `staleMs` > 0 arms stale
 * detection.
 */
export async function streamAttempt(
  model: StreamingModel,
  request: ModelRequest,
  options: InvokeOptions,
  clock: Clock,
  staleMs: number,
  policy: StreamPolicy,
): Promise<ModelResponse> {
  const { emit, onPart } = options;
  const aggregator = new StreamAggregator();
  const watch =
    staleMs > 0 ? new StaleWatch(clock, staleMs, model.id, request, policy, options.signal) : undefined;
  let delivered = false;
  try {
    for await (const part of model.stream(request, { signal: watch ? watch.signal : options.signal })) {
      if (watch) watch.last = clock.now();
      aggregator.push(part);
      emitPart(emit, part);
      onPart?.(part);
      if (!delivered) delivered = isVisible(part);
      const pause = emit?.backpressure();
      if (pause) await (watch ? watch.hold(pause) : pause);
    }
  } catch (error) {
    const failure = watch?.error ?? error;
    if (delivered && !options.signal?.aborted) {
      throw new StreamInterruptedError(asModelError(failure, model.id), aggregator.response());
    }
    throw failure;
  } finally {
    watch?.stop();
  }
  return aggregator.response();
}

/** True for a part the caller has seen as output (an event or a tool call), not bookkeeping. */
function isVisible(part: ModelStreamPart): boolean {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return part.delta !== '';
    case 'tool-call-delta':
    case 'tool-call':
      return true;
    default:
      return false;
  }
}

/**
 * Aborts an attempt, through its own controller linked to the caller's
 * signal, when no chunk arrived for the timeout. One timer per attempt,
 * re-armed only when it fires (chunks just stamp `last`), so the per-chunk
 * cost is one clock read. The large-prompt timeout is computed at the first
 * expiry only: most streams never get there.
 */
class StaleWatch {
  private readonly controller = new AbortController();
  /** Time of the last chunk (or of the end of a backpressure pause). */
  last: number;
  /** Set when the watch aborted the attempt. */
  error: ModelError | undefined;
  private limit: number;
  private extended = false;
  private paused = false;
  private cancel: () => void;

  constructor(
    private readonly clock: Clock,
    timeoutMs: number,
    private readonly modelId: string,
    private readonly request: ModelRequest,
    private readonly policy: StreamPolicy,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.last = clock.now();
    this.limit = timeoutMs;
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.forwardAbort, { once: true });
    this.cancel = clock.setTimer(timeoutMs, this.check);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Waits out a backpressure pause without counting it as silence. */
  async hold(pause: Promise<void>): Promise<void> {
    this.paused = true;
    try {
      await pause;
    } finally {
      this.paused = false;
      this.last = this.clock.now();
    }
  }

  stop(): void {
    this.cancel();
    this.outer?.removeEventListener('abort', this.forwardAbort);
  }

  private readonly forwardAbort = (): void => {
    this.controller.abort(this.outer?.reason);
  };

  private readonly check = (): void => {
    const idle = this.clock.now() - this.last;
    if (this.paused || idle < this.limit) {
      this.cancel = this.clock.setTimer(this.paused ? this.limit : this.limit - idle, this.check);
      return;
    }
    if (!this.extended) {
      this.extended = true;
      const tokens = estimatePromptTokens(this.request);
      const bump = this.policy.largePromptTimeouts.find((entry) => tokens > entry.minTokens);
      if (bump && bump.timeoutMs > this.limit) {
        this.limit = bump.timeoutMs;
        this.cancel = this.clock.setTimer(this.limit - idle, this.check);
        return;
      }
    }
    this.error = new ModelError(
      'timeout',
      `${this.modelId}: stream stalled (no chunk for ${Math.round(idle / 1000)} s)`,
      { model: this.modelId, retryable: true },
    );
    this.controller.abort(this.error);
  };
}
