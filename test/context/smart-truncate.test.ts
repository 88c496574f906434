import { describe, expect, it } from 'vitest';
import { smartTruncate } from '../../src/context/smart-truncate.js';

describe('smartTruncate', () => {
  it('returns text that fits unchanged', () => {
    expect(smartTruncate('short', 100)).toBe('short');
  });

  it('returns nothing for a non-positive limit', () => {
    expect(smartTruncate('text', 0)).toBe('');
  });

  it('cuts hard below 25 characters', () => {
    expect(smartTruncate('abcdefghijklmnopqrstuvwxyz0123', 24)).toBe('abcdefghijklmnopqrstuvwx');
  });

  it('cuts at a paragraph break that keeps more than 60 % of the room', () => {
    const text = `${'a'.repeat(70)}\n\n${'b'.repeat(100)}`;
    expect(smartTruncate(text, 120)).toBe(`${'a'.repeat(70)}\n\n[...truncated]`);
  });

  it('cuts at a sentence end when the paragraph break is too early', () => {
    const text = `${'a'.repeat(10)}\n\n${'b'.repeat(50)}. ${'c'.repeat(100)}`;
    expect(smartTruncate(text, 120)).toBe(`${'a'.repeat(10)}\n\n${'b'.repeat(50)}. [...truncated]`);
  });

  it('cuts at a word break when no sentence end is late enough', () => {
    const text = `${'a'.repeat(50)} ${'b'.repeat(100)}`;
    expect(smartTruncate(text, 120)).toBe(`${'a'.repeat(50)} [...truncated]`);
  });

  it('cuts hard with a marker when no boundary is late enough', () => {
    const text = 'x'.repeat(200);
    const out = smartTruncate(text, 120);
    expect(out).toBe(`${'x'.repeat(100)}...[truncated]`);
    expect(out.length).toBeLessThanOrEqual(120);
  });

  it('never exceeds the limit', () => {
    for (const max of [25, 40, 77, 300]) {
      const text = 'Lorem ipsum dolor sit amet. Consectetur adipiscing elit!\n\nSed do eiusmod. '.repeat(20);
      expect(smartTruncate(text, max).length).toBeLessThanOrEqual(max);
    }
  });
});
