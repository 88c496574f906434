/**
 * The seam between agents and models. Agents never call a `ChatModel`
 * directly; they call a {@link ModelInvoker}, which streams (emitting `token`
 * and `reasoning` events), retries, falls back and recovers from
 * context-length errors. The one implementation is the resilient invoker
 * (`resilience/resilient-invoker.ts`); a direct call is it with retries off.
 * @module
 */
import type { Emitter } from '../core/events.js';
import type { CompressHook } from './resilience/context-recovery.js';
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
  /**
   * True when the invoker retries retryable model failures itself, so a
   * caller's own attempt loop (`generateWithRetry`) keeps only its re-asks
   * instead of multiplying the retries.
   */
  readonly retries?: boolean;
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
