/**
 * The error a caller waiting on an aborted signal rejects with.
 * @module
 */
import { AbortError } from './errors.js';

/**
 * The signal's reason when it is an `Error` a caller may match on (such as a
 * timeout `ModelError`), else an {@link AbortError} wrapping it.
 */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason : new AbortError(reason);
}
