/**
 * The attempts of one invoke on one model of the resilient invoker's chain:
 * the first call, then retries, stream-to-generate degradation and context
 * recoveries until a reply or a failure that ends this model (the chain then
 * decides whether the next model is tried). One instance per model called,
 * holding what the attempts share, so its steps pass nothing around.
 * @module
 */
import { abortable } from '../../core/abortable.js';
import { AbortError, ConfigError, type ModelError, type ModelErrorKind } from '../../core/errors.js';
import { type Clock, sleep } from '../../core/seams.js';
import type { Watchdog } from '../../core/watchdog.js';
import { answeredBy, emitPart, type InvokeOptions } from '../invoke.js';
import { responseToStream } from '../stream.js';
import { type TracedAttempt, tracedModelCall } from '../traced-call.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../types.js';
import {
  type ContextRecoveryPolicy,
  contextErrorOf,
  isBare400,
  type RecoveryState,
  recoverContext,
  windowOf,
} from './context-recovery.js';
import { StreamInterruptedError } from './errors.js';
import { canFallBack, emptyReplyError, errorInfo, isEmptyReply } from './fallback.js';
import { generateAttempt } from './generate-call.js';
import { type RetryBackoff, retryDelay, toModelError } from './retry-policy.js';
import {
  generateTimeoutFor,
  type StreamingModel,
  type StreamPolicy,
  staleTimeoutFor,
  streamAttempt,
} from './stream-call.js';
import { showedSomething } from './visible.js';

/** Invoke options with the watchdog of the call's attempts. */
export type WithWatchdog = InvokeOptions & { watchdog: Watchdog };

/**
 * One invoke as every model of the chain sees it: the request (shrunk by
 * context recoveries, for all models) and the caller's options.
 */
export interface InvokeCall extends RecoveryState {
  readonly options: WithWatchdog;
}

/** What the attempts read from their invoker: its chain, policies and seams. */
export interface AttemptPolicy extends RetryBackoff {
  readonly models: readonly ChatModel[];
  readonly stream: StreamPolicy;
  readonly context: ContextRecoveryPolicy;
  /** Error kinds that move on to the next model at once instead of retrying. */
  readonly eagerKinds: ReadonlySet<ModelErrorKind>;
  readonly clock: Clock;
  /** Windows learnt from context-length errors, kept once a call at that size succeeded. */
  readonly learntWindows: Map<string, number>;
}

/** All attempts of one invoke on `models[index]`, and what they have used so far. */
export class ModelAttempts implements TracedAttempt {
  readonly model: ChatModel;
  private readonly hasNext: boolean;
  /** 1-based number of the attempt under way (context recoveries included). */
  attempt = 1;
  private retries = 0;
  private bareRetries = 0;
  private streamFailures = 0;
  /** Whether the attempt under way streams. */
  private useStream = false;
  /** The window the request was last shrunk for, learnt once a call at that size succeeds. */
  private window: number | undefined = undefined;

  constructor(
    private readonly policy: AttemptPolicy,
    index: number,
    private readonly call: InvokeCall,
  ) {
    this.model = policy.models[index] as ChatModel;
    this.hasNext = index + 1 < policy.models.length;
  }

  /** The request as the next attempt sends it. */
  get request(): ModelRequest {
    return this.call.request;
  }

  /** All attempts on this model. Rejects when this model is done for: the chain decides what next. */
  run(): Promise<ModelResponse> {
    // One promise layer for the first attempt, whichever way it ends: a run waiting on its model pays for no more.
    // Promise handlers, not an async function: a run waiting on its model holds no frame of the retry loop.
    return this.once().then(
      (response) => {
        try {
          return this.accept(response);
        } catch (error) {
          return this.retryLoop(error);
        }
      },
      (error: unknown) => this.retryLoop(error),
    );
  }

  /** After a failed attempt: recover or wait, then try again, until a reply or a failure that ends this model. */
  private async retryLoop(failure: unknown): Promise<ModelResponse> {
    for (;;) {
      await this.recover(failure);
      this.attempt++;
      try {
        const response = await this.once();
        return this.accept(response);
      } catch (error) {
        failure = error;
      }
    }
  }

  /** One call of the model, streamed while it can stream and streaming has not failed too often. */
  private once(): Promise<ModelResponse> {
    const { signal, emit } = this.call.options;
    if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
    this.useStream =
      this.model.stream !== undefined &&
      this.call.options.stream !== false &&
      this.streamFailures < this.policy.stream.maxFailures;
    // No tracer, no span: the call goes out without the closure a span needs.
    if (!emit?.span) return this.send();
    try {
      return tracedModelCall(emit, this, () => this.send());
    } catch (error) {
      // A tracer of your own that throws rejects the attempt rather than throwing from it.
      return Promise.reject(error);
    }
  }

  /** The request to the model, under the watchdog with the timeout of the way it is called. */
  private send(): Promise<ModelResponse> {
    const { model, policy, call } = this;
    const { options, request } = call;
    const watched = {
      clock: policy.clock,
      timeoutMs: this.useStream
        ? staleTimeoutFor(model, policy.stream)
        : generateTimeoutFor(model, policy.stream),
      modelId: model.id,
      largePromptTimeouts: policy.stream.largePromptTimeouts,
      watchdog: options.watchdog,
    };
    return this.useStream
      ? streamAttempt(model as StreamingModel, request, { options, watched })
      : generateAttempt(model, request, watched);
  }

  /** A reply of the attempt under way, or the error that fails it (an empty reply while a fallback is left). */
  private accept(response: ModelResponse): ModelResponse {
    const { model } = this;
    if (this.hasNext && isEmptyReply(response.message)) {
      const empty = emptyReplyError(model.id);
      throw this.useStream && showedSomething(response) ? new StreamInterruptedError(empty, response) : empty;
    }
    if (!this.useStream) replay(response, this.call.options);
    if (this.window !== undefined) this.policy.learntWindows.set(model.id, this.window);
    return answeredBy(response, model);
  }

  /**
   * After a failed attempt: resolves when the model may be called again (the
   * request shrunk, or the backoff waited out, emitting `retry`); rethrows
   * the failure when this model is done for.
   */
  private async recover(raw: unknown): Promise<void> {
    // A misconfigured model (no API key) is the app's to fix: no retry or fallback hides it.
    if (raw instanceof ConfigError) throw raw;
    const { model, policy, call } = this;
    const { signal, emit, compress } = call.options;
    const error = toModelError(raw, model.id, signal);
    if (error instanceof AbortError || error instanceof StreamInterruptedError) throw error;
    const known = this.window ?? policy.learntWindows.get(model.id) ?? windowOf(model, policy.context);
    // Only after a failure: the sizing object costs nothing on a call that succeeds.
    const sizing = { window: known, policy: policy.context, compress };
    const tooBig = contextErrorOf(error, call.request, sizing);
    if (tooBig) {
      // Under the caller's signal, so a compress hook deaf to it cannot keep the call from settling on abort.
      const recovered = recoverContext(call, tooBig, sizing);
      this.window = (await abortable(recovered, signal)) ?? known;
      return;
    }
    if (!canFallBack(error)) throw error;
    const bare = isBare400(error) && this.bareRetries < policy.retry.maxBare400Retries;
    if (!this.shouldRetry(error, bare)) throw error;
    if (bare) this.bareRetries++;
    if (this.useStream) this.streamFailures++;
    this.retries++;
    const delayMs = retryDelay(this.retries, error, policy);
    emit?.emit('retry', { model: model.id, attempt: this.retries, delayMs, error: errorInfo(error) });
    await sleep(policy.clock, delayMs, signal);
  }

  /** `bare`: a bare 400 with its own retry left, retried although `bad_request` is not retryable. */
  private shouldRetry(error: ModelError, bare: boolean): boolean {
    if (!(error.retryable || bare) || this.retries >= this.policy.retry.maxRetries) return false;
    return !(this.hasNext && this.policy.eagerKinds.has(error.kind));
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
