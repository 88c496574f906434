/**
 * Settling on abort whatever the callee does. A model adapter or a store that
 * ignores its `AbortSignal` must not hang the run that called it: the caller
 * stops waiting when the signal aborts, and the orphaned promise is left to
 * the callee (its late rejection is swallowed, never an unhandled rejection).
 * @module
 */
import { offAbort, onAbort } from './abort-listeners.js';
import { abortReason } from './abort-reason.js';

/**
 * `promise`, or a rejection with the signal's reason (as an {@link AbortError}
 * unless the reason is already an `Error` a caller may match on, such as a
 * timeout `ModelError`) as soon as `signal` aborts, whichever comes first.
 * Costs one entry in the signal's shared abort listener while pending; nothing without a signal.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(ignore);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = () => {
      promise.catch(ignore);
      reject(abortReason(signal));
    };
    onAbort(signal, aborted);
    promise.then(
      (value) => {
        offAbort(signal, aborted);
        resolve(value);
      },
      (error: unknown) => {
        offAbort(signal, aborted);
        reject(error);
      },
    );
  });
}

function ignore(): void {}
