/**
 * Bounded memos for hot paths whose inputs repeat (argument keys, short
 * texts, merged byte pieces): a string key's value is computed once, and
 * past `limit` keys the memo starts over rather than growing or evicting
 * one by one — cheap, and enough for keys that repeat.
 * @module
 */

/** `compute`, remembered for up to `limit` distinct keys at a time. */
export function memoized<V>(compute: (key: string) => V, limit: number): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = compute(key);
      if (known.size >= limit) known.clear();
      known.set(key, value);
    }
    return value;
  };
}
