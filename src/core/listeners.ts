/**
 * The bus's listeners by event type. Lists are replaced, never changed in
 * place, so a listener added or removed while an event is delivered takes
 * effect from the next event — as with Node's and eventemitter3's emitters.
 * A few methods over a map of arrays: the bus needs no emitter library, and
 * importing tandem loads none.
 * @module
 */

interface Entry<E> {
  readonly fn: (event: E) => void;
  readonly once: boolean;
}

/** Listeners of events of type `E`, keyed by a string (an event type or `'*'`). */
export class Listeners<E> {
  private readonly byKey = new Map<string, readonly Entry<E>[]>();

  /** Adds `fn` for `key`; with `once`, it is removed before its first call. */
  add(key: string, fn: (event: E) => void, once = false): void {
    this.byKey.set(key, [...(this.byKey.get(key) ?? []), { fn, once }]);
  }

  /** Removes every registration of `fn` for `key`. */
  remove(key: string, fn: (event: E) => void): void {
    const entries = this.byKey.get(key);
    if (!entries) return;
    const kept = entries.filter((entry) => entry.fn !== fn);
    if (kept.length > 0) this.byKey.set(key, kept);
    else this.byKey.delete(key);
  }

  /** How many listeners `key` has. */
  count(key: string): number {
    return this.byKey.get(key)?.length ?? 0;
  }

  /** Calls the listeners of `key` registered when the call starts, in order. */
  emit(key: string, event: E): void {
    const entries = this.byKey.get(key);
    if (!entries) return;
    for (const entry of entries) {
      if (entry.once) this.remove(key, entry.fn);
      entry.fn(event);
    }
  }
}
