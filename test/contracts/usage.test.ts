import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, totalTokens } from '../../src/core/usage.js';

describe('Usage', () => {
  it('sums in place, treating missing fields and a missing delta as zero', () => {
    const total = emptyUsage();
    expect(addUsage(total, { inputTokens: 10, outputTokens: 2 })).toBe(total);
    addUsage(total, { cachedInputTokens: 4, reasoningTokens: 1, inputTokens: 5 });
    addUsage(total, undefined);
    expect(total).toEqual({ inputTokens: 15, outputTokens: 2, cachedInputTokens: 4, reasoningTokens: 1 });
    expect(totalTokens(total)).toBe(17);
  });
});
