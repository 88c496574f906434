/** A reply that is one JSON value: its candidates are checked once each, with the outcome of the full search. */
import { describe, expect, it } from 'vitest';
import { findJSON } from '../../src/model/json-candidates.js';

describe('findJSON on a reply that is one JSON value', () => {
  it('checks each candidate once when none fits, and reports the miss', () => {
    const checked: unknown[] = [];
    const search = findJSON('{"a":{"b":1}}', 'object', (value) => {
      checked.push(value);
      return { ok: false, message: 'no' };
    });
    expect(checked).toEqual([{ a: { b: 1 } }, { b: 1 }]);
    expect(search.ok).toBe(false);
  });

  it('finds the value inside that fits, as the full search does', () => {
    const search = findJSON('{"a":{"b":1}}', 'object', (value) =>
      'b' in (value as object) ? { ok: true, value } : { ok: false, message: 'no' },
    );
    expect(search).toMatchObject({ ok: true, value: { b: 1 } });
  });
});
