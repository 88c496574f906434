/**
 * `compare`: a run against a baseline, per scorer and per case, with the
 * thresholds a CI gate holds.
 * @module
 */
import type { EvalResults } from '../types.js';

/** Limits the current run must keep to pass. */
export interface CompareThresholds {
  /** Largest drop of a scorer's mean allowed (0–1). Default 0: any drop fails. */
  maxScoreDrop?: number;
  /** Largest drop of a single case's score allowed; unset: cases are reported, not gated. */
  maxCaseDrop?: number;
  /** Least pass rate per scorer (by name), or for every scorer (a number). */
  minPassRate?: number | Record<string, number>;
}

/** One scorer, baseline against current. */
export interface ScorerDelta {
  scorer: string;
  baseline: number;
  current: number;
  delta: number;
  baselinePassRate: number;
  currentPassRate: number;
}

/** One case and scorer, baseline against current (mean over trials). */
export interface CaseDelta {
  id: string;
  scorer: string;
  baseline: number;
  current: number;
  delta: number;
}

/** What {@link compare} finds. */
export interface Comparison {
  passed: boolean;
  /** Why the gate failed, one line each. */
  failures: string[];
  scorers: ScorerDelta[];
  /** Cases whose score changed, largest drop first. */
  cases: CaseDelta[];
  /** The datasets' hashes differ: the runs measured different cases. */
  datasetChanged: boolean;
  /** Case ids only one of the runs has. */
  missing: string[];
  added: string[];
}

const EPSILON = 1e-9;

function minPassRate(thresholds: CompareThresholds, scorer: string): number | undefined {
  const m = thresholds.minPassRate;
  return typeof m === 'number' ? m : m?.[scorer];
}

/**
 * Compares `current` with `baseline`: deltas per scorer (means and pass
 * rates) and per case, and whether `thresholds` hold. A scorer missing from
 * the current run fails the gate; an aborted current run fails it too.
 */
export function compare(
  baseline: EvalResults,
  current: EvalResults,
  options: { thresholds?: CompareThresholds } = {},
): Comparison {
  const thresholds = options.thresholds ?? {};
  const failures: string[] = [];
  if (current.aborted) failures.push('the current run was aborted before every case finished');
  const scorers: ScorerDelta[] = [];
  for (const [name, base] of Object.entries(baseline.summary)) {
    const now = current.summary[name];
    if (!now) {
      failures.push(`scorer ${name} is missing from the current run`);
      continue;
    }
    const delta = now.mean - base.mean;
    scorers.push({
      scorer: name,
      baseline: base.mean,
      current: now.mean,
      delta,
      baselinePassRate: base.passRate,
      currentPassRate: now.passRate,
    });
    if (-delta > (thresholds.maxScoreDrop ?? 0) + EPSILON)
      failures.push(`${name} mean fell ${fmt(base.mean)} → ${fmt(now.mean)} (${fmt(delta)})`);
    const least = minPassRate(thresholds, name);
    if (least !== undefined && now.passRate + EPSILON < least)
      failures.push(`${name} pass rate ${fmt(now.passRate)} is under ${fmt(least)}`);
  }
  const before = new Map(baseline.cases.map((c) => [c.id, c]));
  const after = new Map(current.cases.map((c) => [c.id, c]));
  const cases: CaseDelta[] = [];
  for (const [id, now] of after) {
    const base = before.get(id);
    if (!base) continue;
    for (const [scorer, score] of Object.entries(base.scores)) {
      const delta = (now.scores[scorer]?.mean ?? 0) - score.mean;
      if (Math.abs(delta) < EPSILON) continue;
      cases.push({ id, scorer, baseline: score.mean, current: score.mean + delta, delta });
      if (thresholds.maxCaseDrop !== undefined && -delta > thresholds.maxCaseDrop + EPSILON)
        failures.push(`case ${id}: ${scorer} fell ${fmt(score.mean)} → ${fmt(score.mean + delta)}`);
    }
  }
  cases.sort((a, b) => a.delta - b.delta);
  return {
    passed: failures.length === 0,
    failures,
    scorers,
    cases,
    datasetChanged: baseline.dataset.hash !== current.dataset.hash,
    missing: [...before.keys()].filter((id) => !after.has(id)),
    added: [...after.keys()].filter((id) => !before.has(id)),
  };
}

/** A score with up to three decimals. */
export function fmt(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
