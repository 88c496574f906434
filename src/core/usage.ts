/**
 * Token usage. Counts are summed across calls with {@link addUsage}.
 * @module
 */

/** Tokens consumed by one or more model calls. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of `inputTokens`). */
  cachedInputTokens: number;
  /** Output tokens spent on reasoning (a subset of `outputTokens`). */
  reasoningTokens: number;
  /**
   * What the tokens cost in US dollars, when the run was given prices (see
   * `PriceTable`) and the model is in the table. Absent means unknown, not free.
   */
  costUsd?: number;
}

/** A zero usage record. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Adds `delta` into `total` in place and returns `total` (no allocation on the hot path). */
export function addUsage(total: Usage, delta: Partial<Usage> | undefined): Usage {
  if (!delta) return total;
  total.inputTokens += delta.inputTokens ?? 0;
  total.outputTokens += delta.outputTokens ?? 0;
  total.cachedInputTokens += delta.cachedInputTokens ?? 0;
  total.reasoningTokens += delta.reasoningTokens ?? 0;
  if (delta.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + delta.costUsd;
  return total;
}

/** Total of input and output tokens. */
export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}
