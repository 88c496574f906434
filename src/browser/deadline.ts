/**
 * Never a hang: every wait on the browser races a time limit, the caller's
 * abort and the page's death, and Playwright's failures become
 * {@link BrowserError}s with a kind the model and the caller can act on.
 * @module
 */

import { onAbort } from '../core/abort-listeners.js';
import { abortReason } from '../core/abort-reason.js';
import { errorMessage, isAbortError } from '../core/errors.js';
import { BrowserError } from './errors.js';

/** What one guarded wait races. */
export interface DeadlineOptions {
  /** What is waited for, for the timeout's message: "loading https://…". */
  what: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Rejects when the page or the browser dies; raced too. */
  death?: Promise<never>;
}

/**
 * `work`, or a {@link BrowserError} of kind `timeout` after `timeoutMs`, the
 * death's error, or the signal's abort — whichever comes first. A late
 * rejection of `work` is swallowed.
 */
export function withDeadline<T>(work: Promise<T>, options: DeadlineOptions): Promise<T> {
  work.catch(() => {});
  if (options.signal?.aborted) return Promise.reject(abortReason(options.signal));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new BrowserError('timeout', `Timed out after ${options.timeoutMs} ms ${options.what}`)),
        ),
      options.timeoutMs,
    );
    const signal = options.signal;
    const off = signal ? onAbort(signal, () => finish(() => reject(abortReason(signal)))) : undefined;
    let done = false;
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      off?.();
      settle();
    }
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
    options.death?.catch((error: unknown) => finish(() => reject(error)));
  });
}

// Playwright's error messages are its API for these cases: it has typed classes for timeouts only.
const CLOSED =
  /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected/i;
const TARGET =
  /strict mode violation|not an? (<input>|input|element|HTMLInputElement)|Element is not|resolved to \d+ elements|No node found|waiting for .*(locator|getByRef)|does not match any|Element is outside of the viewport/i;

/** Playwright's failure as a {@link BrowserError} (abort and our own errors pass through). */
export function browserErrorOf(error: unknown, what: string): Error {
  if (error instanceof BrowserError || isAbortError(error)) return error as Error;
  const message = errorMessage(error);
  const name = error instanceof Error ? error.name : '';
  if (/ERR_BLOCKED_BY_CLIENT/.test(message))
    return new BrowserError('blocked', `The network rules refused a request ${what}`, { cause: error });
  if (name === 'TimeoutError' || /Timeout \d+ms exceeded/.test(message))
    return new BrowserError('timeout', `Timed out ${what}: ${firstLine(message)}`, { cause: error });
  if (/crash/i.test(message))
    return new BrowserError('crashed', `The page crashed ${what}`, { cause: error });
  if (CLOSED.test(message))
    return new BrowserError('closed', `The browser or page closed ${what}`, { cause: error });
  if (TARGET.test(message))
    return new BrowserError('target', `${firstLine(message)} (${what})`, { cause: error });
  return new BrowserError('action', `Failed ${what}: ${firstLine(message)}`, { cause: error });
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
