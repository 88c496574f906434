/**
 * Markdown summaries for a pull request: a run's scores, and a comparison.
 * @module
 */
import type { EvalResults } from '../types.js';
import { type Comparison, fmt } from './compare.js';

/** Text made safe inside a markdown table cell. */
function cell(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));
}

/** A run's summary: scorers' means and pass rates, then failing cases with their reasons. */
export function markdownSummary(results: EvalResults): string {
  const lines = [
    `## Eval: ${cell(results.name)}`,
    '',
    `Dataset \`${results.dataset.name}\` (${results.dataset.size} cases, sha256 \`${results.dataset.hash.slice(0, 12)}\`), ${results.trials} trial(s) per case${results.aborted ? `, **aborted** after ${results.cases.length} cases` : ''}.`,
    '',
    '| scorer | mean | pass rate |',
    '| --- | --- | --- |',
    ...Object.entries(results.summary).map(
      ([name, s]) => `| ${cell(name)} | ${fmt(s.mean)} | ${fmt(s.passRate)} |`,
    ),
  ];
  const failing = results.cases.flatMap((c) =>
    Object.entries(c.scores)
      .filter(([, s]) => s.passAtK < 1)
      .map(
        ([name]) => `| ${cell(c.id)} | ${cell(name)} | ${cell(c.trials[0]?.scores[name]?.reason ?? '')} |`,
      ),
  );
  if (failing.length)
    lines.push('', '### Failing cases', '', '| case | scorer | reason |', '| --- | --- | --- |', ...failing);
  return `${lines.join('\n')}\n`;
}

/** A comparison: pass or fail with the reasons, the per-scorer deltas and the largest per-case drops. */
export function markdownComparison(comparison: Comparison, options: { maxCases?: number } = {}): string {
  const lines = [
    `## Eval comparison: ${comparison.passed ? '✅ passed' : '❌ failed'}`,
    '',
    ...comparison.failures.map((f) => `- ${cell(f)}`),
    ...(comparison.datasetChanged ? ['- note: the dataset changed between the runs'] : []),
    '',
    '| scorer | baseline | current | Δ |',
    '| --- | --- | --- | --- |',
    ...comparison.scorers.map(
      (s) =>
        `| ${cell(s.scorer)} | ${fmt(s.baseline)} | ${fmt(s.current)} | ${s.delta >= 0 ? '+' : ''}${fmt(s.delta)} |`,
    ),
  ];
  const changed = comparison.cases.slice(0, options.maxCases ?? 20);
  if (changed.length)
    lines.push(
      '',
      '| case | scorer | baseline | current | Δ |',
      '| --- | --- | --- | --- | --- |',
      ...changed.map(
        (c) =>
          `| ${cell(c.id)} | ${cell(c.scorer)} | ${fmt(c.baseline)} | ${fmt(c.current)} | ${c.delta >= 0 ? '+' : ''}${fmt(c.delta)} |`,
      ),
    );
  return `${lines.join('\n')}\n`;
}
