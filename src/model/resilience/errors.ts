/**
 * The one error the resilient invoker adds: a failure after part of the reply
 * was already shown.
 * @module
 */
import { ModelError } from '../../core/errors.js';
import type { ModelResponse } from '../types.js';

/**
 * A streamed call failed (or came back empty) after visible output — text,
 * reasoning or a tool call — was already delivered through events and
 * `onPart`. The invoker neither retries nor falls back, since a second call
 * would show the output again (seed bug B5). `kind` is the underlying
 * failure's, `retryable` is false so generic retry wrappers leave it alone,
 * `partial` is what was delivered; the caller decides (keep it, ask the model
 * to continue, or fail the step).
 */
export class StreamInterruptedError extends ModelError {
  static override readonly brand: string = 'StreamInterruptedError';

  /** The reply as far as it was delivered. */
  readonly partial: ModelResponse;
  constructor(error: ModelError, partial: ModelResponse) {
    super(error.kind, `${error.message} (after partial delivery; not retried, to avoid repeating output)`, {
      status: error.status,
      model: error.model,
      retryable: false,
      cause: error,
    });
    this.partial = partial;
  }
}
