/** `describeEval` from `tandem-agents/evals/vitest`: a suite that runs on demand and asserts least scores. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dataset, type EvalResults, exactMatch } from '../../src/evals/index.js';
import { describeEval } from '../../src/evals/vitest.js';

const seen: EvalResults[] = [];
const data = dataset([
  { input: 'a', expected: 'A' },
  { input: 'b', expected: 'B' },
]);

await describeEval('upper-casing', {
  dataset: await data,
  enabled: true,
  task: (s: string) => s.toUpperCase(),
  scorers: [exactMatch()],
  onResults: (results) => {
    seen.push(results);
  },
});

// Off by default (TANDEM_EVAL unset): the suite is skipped, so this task never runs.
await describeEval('on demand only', {
  dataset: await data,
  task: () => {
    throw new Error('ran without TANDEM_EVAL');
  },
  scorers: [exactMatch()],
});

describe('describeEval', () => {
  it('ran the enabled suite before this one and handed over its results', () => {
    expect(seen).toHaveLength(1);
    expect(seen[0]!.summary.exact).toEqual({ mean: 1, passRate: 1 });
  });

  it('fails a suite whose mean falls under its least score, with the markdown summary', async () => {
    const child = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/evals/fixtures/vitest.suite.config.ts'],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    const output = child.stdout + child.stderr;
    expect(child.status, output).toBe(1);
    expect(output).toContain('exact: mean 0.5 < 0.9');
    expect(output).toContain('| wrong | exact | expected b |');
  }, 60_000);
});
