/**
 * The resilient {@link ModelInvoker}: retries with backoff, falls back along a
 * chain of models, degrades a failing stream to one whole call, detects stale
 * streams and recovers from context-length errors through the compression
 * seam. It only ever calls models — tool execution lives in the executor,
 * which never re-runs a tool whose result is already in the conversation —
 * so a retried call re-sends the same request and repeats no side effect.
 * @module
 */
import { AbortError, ConfigError, type ModelError, type ModelErrorKind } from '../../core/errors.js';
import { type Clock, type Random, type Runtime, sleep, systemClock, systemRandom } from '../../core/seams.js';
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
  retry?: RetryOptions;
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

class ResilientInvoker implements ModelInvoker {
  readonly id: string;
  readonly model: ChatModel;
  readonly models: readonly ChatModel[];
  private readonly retry: RetryPolicy;
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
    this.stream = resolveStreamPolicy(options.stream);
    this.context = resolveContextRecoveryPolicy(options.contextRecovery);
    this.eagerKinds = resolveEagerKinds(options.fallback);
    this.clock = options.runtime?.clock ?? systemClock;
    this.random = options.runtime?.random ?? systemRandom;
  }

  async invoke(request: ModelRequest, options: InvokeOptions = {}): Promise<ModelResponse> {
    const state: RecoveryState = { request, compressions: 0 };
    const last = this.models.length - 1;
    for (let index = 0; ; index++) {
      const model = this.models[index] as ChatModel;
      try {
        return await this.callModel(model, state, options, index < last);
      } catch (error) {
        const next = this.models[index + 1];
        if (!next || !canFallBack(error)) throw error;
        options.emit?.emit('fallback', { from: model.id, to: next.id, error: errorInfo(error) });
      }
    }
  }

  /** All attempts on one model. Throws when this model is done for: the chain decides what next. */
  private async callModel(
    model: ChatModel,
    state: RecoveryState,
    options: InvokeOptions,
    hasNext: boolean,
  ): Promise<ModelResponse> {
    const { signal, emit } = options;
    const streams = model.stream !== undefined && options.stream !== false;
    let retries = 0;
    let bareRetries = 0;
    let streamFailures = 0;
    let window: number | undefined;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      const useStream = streams && streamFailures < this.stream.maxFailures;
      try {
        const response = await tracedModelCall(model, state.request, emit, attempt, () =>
          useStream
            ? streamAttempt(
                model as StreamingModel,
                state.request,
                options,
                this.clock,
                staleTimeoutFor(model, this.stream),
                this.stream,
              )
            : generateAttempt(
                model,
                state.request,
                signal,
                this.clock,
                generateTimeoutFor(model, this.stream),
                this.stream.largePromptTimeouts,
              ),
        );
        if (hasNext && isEmptyReply(response.message)) {
          const empty = emptyReplyError(model.id);
          throw useStream && showedSomething(response) ? new StreamInterruptedError(empty, response) : empty;
        }
        if (!useStream) replay(response, options);
        if (window !== undefined) this.learntWindows.set(model.id, window);
        return answeredBy(response, model);
      } catch (raw) {
        // A misconfigured model (no API key) is the app's to fix: no retry or fallback hides it.
        if (raw instanceof ConfigError) throw raw;
        const error = toModelError(raw, model.id, signal);
        if (error instanceof AbortError || error instanceof StreamInterruptedError) throw error;
        const known = window ?? this.learntWindows.get(model.id) ?? windowOf(model, this.context);
        const tooBig = contextErrorOf(error, state.request, known, this.context);
        if (tooBig) {
          window = (await recoverContext(state, tooBig, known, this.context, options.compress)) ?? known;
          continue;
        }
        if (!canFallBack(error)) throw error;
        const bare = isBare400(error) && bareRetries < this.retry.maxBare400Retries;
        if (!this.shouldRetry(error, bare, retries, hasNext)) throw error;
        if (bare) bareRetries++;
        if (useStream) streamFailures++;
        retries++;
        const delayMs = retryDelay(retries, error, this.retry, this.random);
        emit?.emit('retry', { model: model.id, attempt: retries, delayMs, error: errorInfo(error) });
        await sleep(this.clock, delayMs, signal);
      }
    }
  }

  /** `bare`: a bare 400 with its own retry left, retried although `bad_request` is not retryable. */
  private shouldRetry(error: ModelError, bare: boolean, retries: number, hasNext: boolean): boolean {
    if (!(error.retryable || bare) || retries >= this.retry.maxRetries) return false;
    return !(hasNext && this.eagerKinds.has(error.kind));
  }
}

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
