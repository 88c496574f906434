import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/tools/arguments.js';

describe('parseArguments', () => {
  it('parses valid JSON without marking it repaired', () => {
    expect(parseArguments('{"a":1,"b":"x"}')).toEqual({ ok: true, value: { a: 1, b: 'x' }, repaired: false });
  });

  it('reads empty or blank text as an empty object', () => {
    expect(parseArguments('')).toEqual({ ok: true, value: {}, repaired: false });
    expect(parseArguments('  \n ')).toEqual({ ok: true, value: {}, repaired: false });
  });

  it('strips a markdown code fence', () => {
    expect(parseArguments('```json\n{"path": "a.ts"}\n```')).toEqual({
      ok: true,
      value: { path: 'a.ts' },
      repaired: true,
    });
    expect(parseArguments('```\n{"n": 2}\n```')).toMatchObject({ ok: true, value: { n: 2 } });
  });

  it('repairs trailing commas', () => {
    expect(parseArguments('{"a": 1, "b": [1, 2,],}')).toEqual({
      ok: true,
      value: { a: 1, b: [1, 2] },
      repaired: true,
    });
  });

  it('repairs single quotes and unquoted keys', () => {
    expect(parseArguments("{'path': 'src/a.ts', n: 3}")).toEqual({
      ok: true,
      value: { path: 'src/a.ts', n: 3 },
      repaired: true,
    });
  });

  it('decodes arguments double-encoded as a JSON string', () => {
    expect(parseArguments('"{\\"a\\": 1}"')).toEqual({ ok: true, value: { a: 1 }, repaired: true });
  });

  it('refuses arguments cut off before the closing brace instead of completing them', () => {
    const result = parseArguments('{"path": "a.ts", "content": "half of the fi');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/closing brace/);
  });

  it('refuses arrays and primitives', () => {
    expect(parseArguments('[1, 2]')).toEqual({
      ok: false,
      error: 'Arguments must be a JSON object, got an array',
    });
    expect(parseArguments('42')).toEqual({
      ok: false,
      error: 'Arguments must be a JSON object, got a number',
    });
    expect(parseArguments('null')).toEqual({ ok: false, error: 'Arguments must be a JSON object, got null' });
    expect(parseArguments('"text"')).toEqual({
      ok: false,
      error: 'Arguments must be a JSON object, got a string',
    });
  });

  it('reports the parse error for text that cannot be repaired', () => {
    const result = parseArguments('{"a": 1} and then some prose}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
  });
});
