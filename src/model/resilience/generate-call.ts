/**
 * One non-streamed model call under the resilience rules: a deadline on the
 * clock (derived like the stream's stale timeout, so a provider that stalls
 * every call reaches the next retry or model) and settling on abort even when
 * the adapter ignores its signal.
 * @module
 */
import { abortable } from '../../core/abortable.js';
import type { CallOptions, ChatModel, ModelRequest, ModelResponse } from '../types.js';
import { type AttemptWatch, StaleWatch } from './stale-watch.js';

/**
 * Calls `model.generate`; with a deadline the call is aborted with a
 * retryable `timeout` `ModelError` when no reply came in time.
 */
export function generateAttempt(
  model: ChatModel,
  request: ModelRequest,
  watched: AttemptWatch,
): Promise<ModelResponse> {
  const signal = watched.watchdog.signal;
  if (watched.timeoutMs <= 0) return abortable(generate(model, request, { signal }), signal);
  const watch = new StaleWatch(watched, request, 'call');
  return watch.settle(generate(model, request, watch.callOptions));
}

/** `model.generate`, rejecting (never throwing) when an adapter throws before it returns a promise. */
function generate(model: ChatModel, request: ModelRequest, options: CallOptions) {
  try {
    return model.generate(request, options);
  } catch (error) {
    return Promise.reject(error);
  }
}
