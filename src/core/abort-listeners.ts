/**
 * One `abort` listener per signal, however many callers wait on it. Each
 * `addEventListener`/`removeEventListener` pair on an `AbortSignal` costs
 * about 0.3 µs, and past ten listeners Node prints
 * `MaxListenersExceededWarning`; the pending tool calls of a turn, the model
 * call of each turn and the steps of a plan all wait on one run's signal, so
 * they register here instead, at the cost of a `Set` insertion.
 * @module
 */

const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts, like
 * `addEventListener('abort', listener, { once: true })`: in registration
 * order, and not at all when the signal has already aborted (check
 * `signal.aborted` first). Returns the function that removes it. A listener
 * that throws does not stop the others; its error is rethrown in a microtask,
 * as an event listener's would be reported.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = waiting.get(signal);
  if (!listeners) {
    const registered = new Set<() => void>();
    listeners = registered;
    waiting.set(signal, registered);
    signal.addEventListener('abort', () => notify(signal, registered), { once: true });
  }
  const set = listeners;
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/**
 * Removes `listener` from `signal`'s shared listener, as the function
 * {@link onAbort} returned does, for a caller that keeps the listener anyway
 * and would rather not keep one more closure per wait.
 */
export function offAbort(signal: AbortSignal, listener: () => void): void {
  waiting.get(signal)?.delete(listener);
}

function notify(signal: AbortSignal, listeners: Set<() => void>): void {
  waiting.delete(signal);
  // As an event's dispatch: listeners added while it runs are not called, removed ones no longer are.
  const snapshot = [...listeners];
  for (const listener of snapshot) {
    if (!listeners.has(listener)) continue;
    try {
      listener();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  listeners.clear();
}
