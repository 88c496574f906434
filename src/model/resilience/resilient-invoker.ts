/**
 * The one {@link ModelInvoker}: retries with backoff, falls back along a
 * chain of models, degrades a failing stream to one whole call, detects stale
 * streams and recovers from context-length errors through the compression
 * seam. A direct call ({@link directInvoker}) is this invoker over one model
 * with retries off, so every call streams, settles on abort and recovers its
 * context the same way. It only ever calls models — tool execution lives in the executor,
 * which never re-runs a tool whose result is already in the conversation —
 * so a retried call re-sends the same request and repeats no side effect.
 * @module
 */
import { ConfigError, type ModelErrorKind } from '../../core/errors.js';
import { type Clock, type Random, type Runtime, systemClock, systemRandom } from '../../core/seams.js';
import { Watchdog } from '../../core/watchdog.js';
import type { InvokeOptions, ModelInvoker } from '../invoke.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../types.js';
import {
  type ContextRecoveryOptions,
  type ContextRecoveryPolicy,
  resolveContextRecoveryPolicy,
} from './context-recovery.js';
import { canFallBack, errorInfo, type FallbackOptions, resolveEagerKinds } from './fallback.js';
import { type AttemptPolicy, type InvokeCall, ModelAttempts, type WithWatchdog } from './model-attempts.js';
import { type RetryOptions, type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';
import { resolveStreamPolicy, type StreamOptions, type StreamPolicy } from './stream-call.js';

/** Options of {@link createResilientInvoker}. Every default is the seeds' number. */
export interface ResilientInvokerOptions {
  /** The chain, primary first. Every `invoke` starts from the primary. */
  models: ChatModel[];
  /** Backoff of retryable failures; `false`: one attempt per model (fallbacks and context recovery stay on). */
  retry?: RetryOptions | false;
  stream?: StreamOptions;
  contextRecovery?: ContextRecoveryOptions;
  fallback?: FallbackOptions;
  /** Clock (backoff waits, stale detection) and random source (jitter). */
  runtime?: Partial<Runtime>;
}

/**
 * A {@link ModelInvoker} over a chain of models. Per model: up to
 * `retry.maxRetries` retries of retryable failures with backoff (or the
 * provider's `Retry-After`, capped), emitting `retry`; streaming until
 * `stream.maxFailures` stream failures, then `generate`. Then the next model,
 * emitting `fallback`; an empty reply also moves on (the last model's empty
 * reply is returned as is, for the caller's own policy). Throws the last model's {@link ModelError}, an
 * {@link AbortError} when the caller aborts, or a `StreamInterruptedError`
 * when a stream fails after delivering output.
 */
export function createResilientInvoker(options: ResilientInvokerOptions): ModelInvoker {
  return new ResilientInvoker(options);
}

/**
 * One call per invocation to `model`: the resilient invoker with retries off.
 * It still streams under stale detection (on `runtime`'s clock), settles when
 * the caller's signal aborts, and recovers from context-length errors through
 * the `compress` seam.
 */
export function directInvoker(model: ChatModel, runtime?: Partial<Runtime>): ModelInvoker {
  return new ResilientInvoker({ models: [model], retry: false, runtime });
}

/**
 * Whether `invoker` settles as soon as its caller's signal aborts, whatever
 * its models and compress hook do (true of every invoker this module makes),
 * so a caller need not race it against the signal again.
 */
export function settlesOnAbort(invoker: ModelInvoker): boolean {
  return invoker instanceof ResilientInvoker;
}

/**
 * The invoke options of a caller that keeps a {@link Watchdog} on its run's
 * signal (the Executor): every attempt of its calls is watched on that one
 * timer. Not public: any other invoker is handed the field and ignores it.
 */
export interface WatchedInvokeOptions extends InvokeOptions {
  watchdog?: Watchdog;
}

class ResilientInvoker implements ModelInvoker, AttemptPolicy {
  readonly id: string;
  readonly model: ChatModel;
  readonly models: readonly ChatModel[];
  readonly retry: RetryPolicy;
  readonly retries: boolean;
  readonly stream: StreamPolicy;
  readonly context: ContextRecoveryPolicy;
  readonly eagerKinds: ReadonlySet<ModelErrorKind>;
  readonly clock: Clock;
  readonly random: Random;
  /** Windows learnt from context-length errors, kept once a call at that size succeeded. */
  readonly learntWindows = new Map<string, number>();

  constructor(options: ResilientInvokerOptions) {
    const primary = options.models?.[0];
    if (!primary) throw new ConfigError('createResilientInvoker needs at least one model');
    this.models = [...options.models];
    this.model = primary;
    this.id = primary.id;
    this.retry = resolveRetryPolicy(options.retry);
    this.retries = this.retry.maxRetries > 0;
    this.stream = resolveStreamPolicy(options.stream);
    this.context = resolveContextRecoveryPolicy(options.contextRecovery);
    this.eagerKinds = resolveEagerKinds(options.fallback);
    this.clock = options.runtime?.clock ?? systemClock;
    this.random = options.runtime?.random ?? systemRandom;
  }

  // Promise handlers rather than async functions on the way to the first reply: a run waiting on its
  // model holds no frame of the retry loop or the chain, which only start after a failure.
  invoke(request: ModelRequest, options: WatchedInvokeOptions = {}): Promise<ModelResponse> {
    if (options.watchdog?.signal === options.signal && options.watchdog) {
      return this.fromModel(0, { request, compressions: 0, options: options as WithWatchdog });
    }
    // A caller without a run's watchdog: one for this call and its retries, gone when it settles.
    const watchdog = new Watchdog(this.clock, options.signal);
    const done = () => watchdog.dispose();
    const call = this.fromModel(0, { request, compressions: 0, options: { ...options, watchdog } });
    call.then(done, done);
    return call;
  }

  /** The chain from `models[index]` on: the next model after this one fails for good. */
  private fromModel(index: number, call: InvokeCall): Promise<ModelResponse> {
    const attempts = new ModelAttempts(this, index, call);
    const next = this.models[index + 1];
    const reply = attempts.run();
    if (!next) return reply;
    return reply.catch((error: unknown) => {
      if (!canFallBack(error)) throw error;
      call.options.emit?.emit('fallback', { from: attempts.model.id, to: next.id, error: errorInfo(error) });
      return this.fromModel(index + 1, call);
    });
  }
}
