/**
 * The resilience options `Executor` and `Orchestrator` share, and the invoker
 * they make of them: resilient by default, with the seeds' numbers.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { Runtime } from '../../core/seams.js';
import type { ModelInvoker } from '../invoke.js';
import type { ChatModel } from '../types.js';
import { createResilientInvoker } from './resilient-invoker.js';
import type { RetryOptions } from './retry-policy.js';

/** How an agent calls its models. */
export interface ResilienceOptions {
  /** Backoff of retryable failures (default the seeds'); `false`: one attempt per model. */
  retry?: RetryOptions | false;
  /** Models to fall back to, in order, after a model failed for good. */
  fallbacks?: ChatModel[];
  /** Advanced: the invoker of a model, replacing the resilient default (and with it `retry` and `fallbacks`). */
  invoker?: (model: ChatModel) => ModelInvoker;
}

/**
 * The invoker factory `options` describe: `options.invoker` when given, else
 * a resilient invoker over the model and `fallbacks`, waiting on `runtime`'s
 * clock and drawing jitter from its random source.
 */
export function invokerFactory(
  options: ResilienceOptions,
  runtime: Partial<Runtime>,
): (model: ChatModel) => ModelInvoker {
  if (options.invoker) {
    if (typeof options.invoker === 'function') return options.invoker;
    // An invoker instance was the Executor's form before the two classes shared the factory.
    throw new ConfigError(
      '`invoker` is a factory `(model) => ModelInvoker`: pass `invoker: () => yourInvoker` (or use `retry` / `fallbacks`)',
    );
  }
  const { retry, fallbacks = [] } = options;
  const seams = { clock: runtime.clock, random: runtime.random };
  return (model) => createResilientInvoker({ models: [model, ...fallbacks], retry, runtime: seams });
}
