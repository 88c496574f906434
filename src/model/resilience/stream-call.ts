/**
 * One streamed model call under the resilience rules: parts are delivered as
 * they arrive, a stream silent for too long is aborted (stale detection), and
 * a failure after visible delivery is never retried behind the caller's back.
 * @module
 */
import { abortable } from '../../core/abortable.js';
import { ConfigError } from '../../core/errors.js';
import { emitPart, type InvokeOptions } from '../invoke.js';
import { StreamAggregator } from '../stream.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../types.js';
import { StreamInterruptedError } from './errors.js';
import { asModelError, definedOnly } from './retry-policy.js';
import { type AttemptWatch, type LargePromptTimeout, StaleWatch } from './stale-watch.js';
import { isVisiblePart } from './visible.js';

/** Streaming options of the resilient invoker. */
export interface StreamOptions {
  /** Stream failures (before delivery) after which the model is called with `generate` (default 2). */
  maxFailures?: number;
  /** Abort an attempt after this long without a chunk; 0 or `Infinity` turns detection off (default 180 000 ms). Always off for `model.info.local`. */
  staleTimeoutMs?: number;
  /** Longer timeouts for large prompts (default: >100k tokens → 300 s, >50k → 240 s; never shorter than `staleTimeoutMs`). */
  largePromptTimeouts?: LargePromptTimeout[];
  /**
   * Deadline of a whole non-streamed call (`generate`, also the fallback after
   * stream failures), with the same large-prompt bumps; 0 or `Infinity` turns it
   * off (default: `staleTimeoutMs`). Always off for `model.info.local`.
   */
  generateTimeoutMs?: number;
}

/** {@link StreamOptions} with every default filled in. */
export interface StreamPolicy {
  readonly maxFailures: number;
  readonly staleTimeoutMs: number;
  /** `undefined`: the same as `staleTimeoutMs`. */
  readonly generateTimeoutMs?: number;
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
  for (const key of ['staleTimeoutMs', 'generateTimeoutMs'] as const) {
    const value = policy[key];
    if (value !== undefined && (Number.isNaN(value) || value < 0)) {
      throw new ConfigError(`stream.${key} must be >= 0, got ${value}`);
    }
  }
  const largePromptTimeouts = [...policy.largePromptTimeouts].sort((a, b) => b.minTokens - a.minTokens);
  return Object.freeze({ ...policy, largePromptTimeouts });
}

/** The stale timeout for `model`: 0 (off) for local models or when disabled. */
export function staleTimeoutFor(model: ChatModel, policy: StreamPolicy): number {
  return activeTimeout(model, policy.staleTimeoutMs);
}

/** The deadline of a non-streamed call to `model`: 0 (off) for local models or when disabled. */
export function generateTimeoutFor(model: ChatModel, policy: StreamPolicy): number {
  return activeTimeout(model, policy.generateTimeoutMs ?? policy.staleTimeoutMs);
}

function activeTimeout(model: ChatModel, ms: number): number {
  return model.info?.local || !Number.isFinite(ms) ? 0 : ms;
}

/** A model known to stream. */
export type StreamingModel = ChatModel & { stream: NonNullable<ChatModel['stream']> };

/**
 * Streams one attempt, emitting `token` / `reasoning` events and calling
 * `onPart` per part, honouring `emit.backpressure()`. Before anything visible
 * was delivered (whitespace is not) a failure is rethrown as is (the invoker
 * may retry it); after, it becomes a {@link StreamInterruptedError}. A
 * `watched.timeoutMs` > 0 arms stale detection. The attempt settles when its
 * signal (the watchdog's) aborts even if the adapter ignores the signal.
 */
export async function streamAttempt(
  model: StreamingModel,
  request: ModelRequest,
  { options, watched }: { options: InvokeOptions; watched: AttemptWatch },
): Promise<ModelResponse> {
  const { emit, onPart } = options;
  const clock = watched.clock;
  const aggregator = new StreamAggregator();
  const watch = watched.timeoutMs > 0 ? new StaleWatch(watched, request, 'stream') : undefined;
  let delivered = false;
  const pump = async () => {
    for await (const part of model.stream(request, watch ? watch.callOptions : { signal: options.signal })) {
      // An adapter deaf to its signal may still yield after the attempt gave up on it: drop those parts.
      if (watch ? watch.done : options.signal?.aborted) break;
      if (watch) watch.last = clock.now();
      aggregator.push(part);
      emitPart(emit, part);
      onPart?.(part);
      if (!delivered) delivered = isVisiblePart(part);
      const pause = emit?.backpressure();
      if (pause) await (watch ? watch.hold(pause) : pause);
    }
  };
  try {
    await (watch ? watch.settle(pump()) : abortable(pump(), options.signal));
  } catch (error) {
    const failure = watch?.error ?? error;
    if (delivered && !options.signal?.aborted) {
      throw new StreamInterruptedError(asModelError(failure, model.id), aggregator.response());
    }
    throw failure;
  }
  return aggregator.response();
}
