/**
 * Statistics over trials: mean, population variance and pass@k.
 * @module
 */
import type { CaseResult, CaseScore, ScorerSummary, TrialResult } from './types.js';

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Population variance: how much a case's score moves between trials. */
export function variance(values: readonly number[]): number {
  const m = mean(values);
  return mean(values.map((v) => (v - m) ** 2));
}

/**
 * The unbiased pass@k estimator (Chen et al. 2021): the chance that at least
 * one of k trials drawn from `n` passes, given `c` of the `n` passed.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** A case's scores per scorer over its trials; `thresholds` by scorer name (default 1). */
export function caseScores(
  trials: readonly TrialResult[],
  thresholds: Record<string, number>,
): Record<string, CaseScore> {
  const out: Record<string, CaseScore> = {};
  for (const name of Object.keys(thresholds)) {
    const values = trials.map((t) => t.scores[name]?.score ?? 0);
    const passes = values.filter((v) => v >= thresholds[name]!).length;
    out[name] = {
      mean: mean(values),
      variance: variance(values),
      passes,
      passAtK: passAtK(values.length, passes, values.length),
    };
  }
  return out;
}

/** Per scorer over cases: mean of case means, and share of cases passing at k. */
export function summarize(
  cases: readonly CaseResult[],
  names: readonly string[],
): Record<string, ScorerSummary> {
  const out: Record<string, ScorerSummary> = {};
  for (const name of names) {
    const scores = cases.map((c) => c.scores[name]).filter((s) => s !== undefined);
    out[name] = { mean: mean(scores.map((s) => s.mean)), passRate: mean(scores.map((s) => s.passAtK)) };
  }
  return out;
}
