/**
 * The seam between agents and models. Agents never call a `ChatModel`
 * directly; they call a {@link ModelInvoker}, which streams (emitting `token`
 * and `reasoning` events), and — in the resilient invoker — retries, falls
 * back and recovers from context-length errors.
 * @module
 */
import { abortable } from '../core/abortable.js';
import type { Emitter } from '../core/events.js';
import { type CompressHook, callWithContextRecovery } from './resilience/context-recovery.js';
import { isVisiblePart } from './resilience/visible.js';
import { StreamAggregator } from './stream.js';
import { tracedModelCall } from './traced-call.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart } from './types.js';

// The seam's type lives with the recovery that calls it; agents and the context layer import it from here.
export type { CompressHook };

/** Options of one invocation. */
export interface InvokeOptions {
  signal?: AbortSignal;
  /** Where `token`, `reasoning`, `retry` and `fallback` events go. */
  emit?: Emitter;
  /** Stream when the model can (default true). */
  stream?: boolean;
  /** Called with every delivered stream part, after its event. */
  onPart?: (part: ModelStreamPart) => void;
  /** Context-length recovery seam (filled by the context layer). */
  compress?: CompressHook;
}

/** Calls a model (or a chain of them) for an agent. */
export interface ModelInvoker {
  /** Id of the primary model. */
  readonly id: string;
  readonly model: ChatModel;
  /**
   * Every model the invoker may call, primary first (a fallback chain), so a
   * run can check their prices before it starts. Absent means `[model]`.
   */
  readonly models?: readonly ChatModel[];
  invoke(request: ModelRequest, options?: InvokeOptions): Promise<ModelResponse>;
}

/**
 * `response` stamped with the id of `model`, the model that produced it.
 * Shared by every invoker, so usage is booked to the model that answered.
 */
export function answeredBy(response: ModelResponse, model: ChatModel): ModelResponse {
  response.model = model.id;
  return response;
}

/**
 * The model a reply is booked to: the one that answered, as its invoker
 * stamped it, else (an invoker of your own that does not) the invoker's primary.
 */
export function answeringModelId(response: ModelResponse, invoker: ModelInvoker): string {
  return response.model ?? invoker.id;
}

/** The ids of every model `invoker` may call, primary first. */
export function invokerModelIds(invoker: ModelInvoker): string[] {
  return (invoker.models ?? [invoker.model]).map((model) => model.id);
}

/** Emits the event a delivered stream part stands for. Shared by every invoker. */
export function emitPart(emit: Emitter | undefined, part: ModelStreamPart): void {
  if (!emit) return;
  if (part.type === 'text-delta') {
    if (part.delta) emit.emit('token', { delta: part.delta });
  } else if (part.type === 'reasoning-delta') {
    if (part.delta) emit.emit('reasoning', { delta: part.delta });
  }
}

/**
 * Runs one streamed call, emitting parts as they arrive, and returns the
 * aggregated reply; settles when `options.signal` aborts even if the model ignores it.
 */
export function streamOnce(
  model: ChatModel & { stream: NonNullable<ChatModel['stream']> },
  request: ModelRequest,
  options: InvokeOptions,
  aggregator = new StreamAggregator(),
): Promise<ModelResponse> {
  const { emit, onPart, signal } = options;
  const pump = async () => {
    for await (const part of model.stream(request, { signal })) {
      // A stream deaf to its signal may yield after the caller stopped waiting: drop those parts.
      if (signal?.aborted) break;
      aggregator.push(part);
      emitPart(emit, part);
      onPart?.(part);
      const pause = emit?.backpressure();
      if (pause) await pause;
    }
    return aggregator.response();
  };
  return abortable(pump(), signal);
}

/**
 * An invoker with no retry or fallback: one call, streamed when possible.
 * With `options.compress` it still recovers from context-size errors (the
 * seam's contract: compress, call again, at most 3 times; a bare 400 on a
 * long conversation counts), unless output was already shown.
 */
export function directInvoker(model: ChatModel): ModelInvoker {
  const invoker: ModelInvoker = {
    id: model.id,
    model,
    models: [model],
    invoke(request, options = {}) {
      const { compress, signal } = options;
      if (!compress) return callOnce(model, request, options);
      let shown = false;
      const watched: InvokeOptions = {
        ...options,
        onPart: (part) => {
          if (!shown) shown = isVisiblePart(part);
          options.onPart?.(part);
        },
      };
      let attempts = 0;
      const attempt = (smaller: ModelRequest) => callOnce(model, smaller, watched, ++attempts);
      return callWithContextRecovery(model, request, compress, attempt, () => !shown && !signal?.aborted);
    },
  };
  settling.add(invoker);
  return invoker;
}

const settling = new WeakSet<ModelInvoker>();

/**
 * Whether `invoker` settles as soon as `options.signal` aborts when called
 * without `compress` (a compress hook may not listen). A caller need not
 * race such a call against the signal itself.
 */
export function settlesOnAbort(invoker: ModelInvoker): boolean {
  return settling.has(invoker);
}

function callOnce(
  model: ChatModel,
  request: ModelRequest,
  options: InvokeOptions,
  attempt = 1,
): Promise<ModelResponse> {
  const call = tracedModelCall(model, request, options.emit, attempt, () => {
    if (model.stream && options.stream !== false) {
      return streamOnce(model as ChatModel & { stream: NonNullable<ChatModel['stream']> }, request, options);
    }
    return abortable(model.generate(request, { signal: options.signal }), options.signal);
  });
  return call.then((response) => answeredBy(response, model));
}
