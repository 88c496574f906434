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
import { abortable } from '../../core/abortable.js';
import { AbortError, ConfigError, type ModelError, type ModelErrorKind } from '../../core/errors.js';
import { type Clock, type Random, type Runtime, sleep, systemClock, systemRandom } from '../../core/seams.js';
import { Watchdog } from '../../core/watchdog.js';
import { answeredBy, emitPart, type InvokeOptions, type ModelInvoker } from '../invoke.js';
import { responseToStream } from '../stream.js';
import { tracedModelCall } from '../traced-call.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../types.js';
import {
  type ContextRecoveryOptions,
  type ContextRecoveryPolicy,
  contextErrorOf,
  isBare400,
  type RecoveryState,
  recoverContext,
  resolveContextRecoveryPolicy,
  windowOf,
} from './context-recovery.js';
import { StreamInterruptedError } from './errors.js';
import {
  canFallBack,
  emptyReplyError,
  errorInfo,
  type FallbackOptions,
  isEmptyReply,
  resolveEagerKinds,
} from './fallback.js';
import { generateAttempt } from './generate-call.js';
import {
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
  toModelError,
} from './retry-policy.js';
import {
  generateTimeoutFor,
  resolveStreamPolicy,
  type StreamingModel,
  type StreamOptions,
  type StreamPolicy,
  staleTimeoutFor,
  streamAttempt,
} from './stream-call.js';
import { showedSomething } from './visible.js';

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

/** What the attempts on one model have used so far. */
interface Tries {
  /** 1-based number of the attempt under way (context recoveries included). */
  attempt: number;
  retries: number;
  bareRetries: number;
  streamFailures: number;
  /** Whether the attempt under way streams. */
  useStream: boolean;
  /** The window the request was last shrunk for, learnt once a call at that size succeeds. */
  window?: number;
}

class ResilientInvoker implements ModelInvoker {
  readonly id: string;
  readonly model: ChatModel;
  readonly models: readonly ChatModel[];
  private readonly retry: RetryPolicy;
  readonly retries: boolean;
  private readonly stream: StreamPolicy;
  private readonly context: ContextRecoveryPolicy;
  private readonly eagerKinds: ReadonlySet<ModelErrorKind>;
  private readonly clock: Clock;
  private readonly random: Random;
  /** Windows learnt from context-length errors, kept once a call at that size succeeded. */
  private readonly learntWindows = new Map<string, number>();

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
    const state = { request, compressions: 0 };
    if (options.watchdog?.signal === options.signal && options.watchdog) {
      return this.fromModel(0, state, options as WithWatchdog);
    }
    // A caller without a run's watchdog: one for this call and its retries, gone when it settles.
    const watchdog = new Watchdog(this.clock, options.signal);
    const done = () => watchdog.dispose();
    const call = this.fromModel(0, state, { ...options, watchdog });
    call.then(done, done);
    return call;
  }

  /** The chain from `models[index]` on: the next model after this one fails for good. */
  private fromModel(index: number, state: RecoveryState, options: WithWatchdog): Promise<ModelResponse> {
    const model = this.models[index] as ChatModel;
    const next = this.models[index + 1];
    const call = this.callModel(model, state, options, next !== undefined);
    if (!next) return call;
    return call.catch((error: unknown) => {
      if (!canFallBack(error)) throw error;
      options.emit?.emit('fallback', { from: model.id, to: next.id, error: errorInfo(error) });
      return this.fromModel(index + 1, state, options);
    });
  }

  /** All attempts on one model. Rejects when this model is done for: the chain decides what next. */
  private callModel(
    model: ChatModel,
    state: RecoveryState,
    options: WithWatchdog,
    hasNext: boolean,
  ): Promise<ModelResponse> {
    const tries: Tries = { attempt: 1, retries: 0, bareRetries: 0, streamFailures: 0, useStream: false };
    // One promise layer for the first attempt, whichever way it ends: a run waiting on its model pays for no more.
    return this.attempt(model, state, options, tries).then(
      (response) => {
        try {
          return this.accept(model, response, options, hasNext, tries);
        } catch (error) {
          return this.retryLoop(model, state, options, hasNext, tries, error);
        }
      },
      (error: unknown) => this.retryLoop(model, state, options, hasNext, tries, error),
    );
  }

  /** After a failed attempt: recover or wait, then try again, until a reply or a failure that ends this model. */
  private async retryLoop(
    model: ChatModel,
    state: RecoveryState,
    options: WithWatchdog,
    hasNext: boolean,
    tries: Tries,
    failure: unknown,
  ): Promise<ModelResponse> {
    for (;;) {
      await this.recover(model, state, options, hasNext, tries, failure);
      tries.attempt++;
      try {
        const response = await this.attempt(model, state, options, tries);
        return this.accept(model, response, options, hasNext, tries);
      } catch (error) {
        failure = error;
      }
    }
  }

  /** One call of `model`, streamed while it can stream and streaming has not failed too often. */
  private attempt(
    model: ChatModel,
    state: RecoveryState,
    options: WithWatchdog,
    tries: Tries,
  ): Promise<ModelResponse> {
    const { signal, emit } = options;
    if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
    tries.useStream =
      model.stream !== undefined &&
      options.stream !== false &&
      tries.streamFailures < this.stream.maxFailures;
    // No tracer, no span: the call goes out without the closure a span needs.
    if (!emit?.span) return this.call(model, state.request, options, tries.useStream);
    return this.traced(model, state.request, emit, tries.attempt, () =>
      this.call(model, state.request, options, tries.useStream),
    );
  }

  private call(model: ChatModel, request: ModelRequest, options: WithWatchdog, useStream: boolean) {
    const watched = {
      clock: this.clock,
      timeoutMs: useStream ? staleTimeoutFor(model, this.stream) : generateTimeoutFor(model, this.stream),
      modelId: model.id,
      largePromptTimeouts: this.stream.largePromptTimeouts,
      watchdog: options.watchdog,
    };
    return useStream
      ? streamAttempt(model as StreamingModel, request, { options, watched })
      : generateAttempt(model, request, watched);
  }

  /** A reply of the attempt under way, or the error that fails it (an empty reply while a fallback is left). */
  private accept(
    model: ChatModel,
    response: ModelResponse,
    options: WithWatchdog,
    hasNext: boolean,
    tries: Tries,
  ): ModelResponse {
    if (hasNext && isEmptyReply(response.message)) {
      const empty = emptyReplyError(model.id);
      throw tries.useStream && showedSomething(response)
        ? new StreamInterruptedError(empty, response)
        : empty;
    }
    if (!tries.useStream) replay(response, options);
    if (tries.window !== undefined) this.learntWindows.set(model.id, tries.window);
    return answeredBy(response, model);
  }

  /** {@link tracedModelCall}, rejecting (never throwing) when a tracer of your own throws. */
  private traced(...args: Parameters<typeof tracedModelCall>): Promise<ModelResponse> {
    try {
      return tracedModelCall(...args);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * After a failed attempt: resolves when the model may be called again (the
   * request shrunk, or the backoff waited out, emitting `retry`); rethrows
   * the failure when this model is done for.
   */
  private async recover(
    model: ChatModel,
    state: RecoveryState,
    options: WithWatchdog,
    hasNext: boolean,
    tries: Tries,
    raw: unknown,
  ): Promise<void> {
    // A misconfigured model (no API key) is the app's to fix: no retry or fallback hides it.
    if (raw instanceof ConfigError) throw raw;
    const { signal, emit } = options;
    const error = toModelError(raw, model.id, signal);
    if (error instanceof AbortError || error instanceof StreamInterruptedError) throw error;
    const known = tries.window ?? this.learntWindows.get(model.id) ?? windowOf(model, this.context);
    const tooBig = contextErrorOf(error, state.request, known, this.context);
    if (tooBig) {
      // Under the caller's signal, so a compress hook deaf to it cannot keep the call from settling on abort.
      const recovered = recoverContext(state, tooBig, known, this.context, options.compress);
      tries.window = (await abortable(recovered, signal)) ?? known;
      return;
    }
    if (!canFallBack(error)) throw error;
    const bare = isBare400(error) && tries.bareRetries < this.retry.maxBare400Retries;
    if (!this.shouldRetry(error, bare, tries.retries, hasNext)) throw error;
    if (bare) tries.bareRetries++;
    if (tries.useStream) tries.streamFailures++;
    tries.retries++;
    const delayMs = retryDelay(tries.retries, error, this.retry, this.random);
    emit?.emit('retry', { model: model.id, attempt: tries.retries, delayMs, error: errorInfo(error) });
    await sleep(this.clock, delayMs, signal);
  }

  /** `bare`: a bare 400 with its own retry left, retried although `bad_request` is not retryable. */
  private shouldRetry(error: ModelError, bare: boolean, retries: number, hasNext: boolean): boolean {
    if (!(error.retryable || bare) || retries >= this.retry.maxRetries) return false;
    return !(hasNext && this.eagerKinds.has(error.kind));
  }
}

/** Invoke options with the watchdog of the call's attempts. */
type WithWatchdog = InvokeOptions & { watchdog: Watchdog };

/**
 * Replays a whole reply as parts unless the caller turned streaming off (the
 * model cannot stream, or streaming failed), so `token` events and `onPart`
 * see every reply whichever way it came.
 */
function replay(response: ModelResponse, options: InvokeOptions): void {
  if (options.stream === false || !(options.emit || options.onPart)) return;
  for (const part of responseToStream(response)) {
    emitPart(options.emit, part);
    options.onPart?.(part);
  }
}
