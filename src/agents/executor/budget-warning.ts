/**
 * Iteration-budget warnings: as an execution nears its iteration budget, the
 * next request reminds the model, then demands the final answer.
 * @module
 */

/**
 * The iteration-budget warning after `used` of `max` iterations: from 70 %
 * a reminder, from 90 % a demand for the final answer; none below 70 % or
 * when `max` is not a finite positive number.
 */
export function budgetWarning(used: number, max: number): string | undefined {
  if (!(max > 0) || !Number.isFinite(max)) return undefined;
  const ratio = used / max;
  const remaining = Math.max(0, max - used);
  if (ratio >= 0.9) {
    return `[BUDGET WARNING: ${remaining} iteration(s) left. Provide your final response NOW if you have enough information.]`;
  }
  if (ratio >= 0.7) {
    return `[BUDGET: ${remaining} iterations left. Prioritize remaining work and avoid unnecessary tool calls.]`;
  }
  return undefined;
}
