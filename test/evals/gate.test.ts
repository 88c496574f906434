/**
 * The CI gate: a broken prompt lowers the scores and `compare` fails; the
 * `tandem-eval` command line (a child process, as CI runs it) exits non-zero
 * on it, and Ctrl-C keeps the cases that finished.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentTask,
  compare,
  dataset,
  type EvalResults,
  evaluate,
  exactMatch,
  markdownComparison,
  markdownSummary,
  runEval,
  toolTrajectory,
} from '../../src/evals/index.js';
import { calculatorAgent } from './scenario.js';

const CHILD_TIMEOUT_MS = 60_000;

async function calculatorResults(instructions: string): Promise<EvalResults> {
  const data = await dataset(
    [
      [2, 3],
      [40, 2],
    ].map(([a, b]) => ({
      id: `${a}+${b}`,
      input: `What is ${a}+${b}?`,
      expected: `The answer is ${a! + b!}.`,
    })),
  );
  return evaluate({
    dataset: data,
    task: agentTask(() => calculatorAgent(instructions)),
    scorers: [exactMatch(), toolTrajectory({ expected: ['calculator'] })],
  });
}

/** Runs the CLI from source in a child Node, as `node --import tsx`; resolves with its exit code and output. */
function cli(
  args: string[],
  env: Record<string, string> = {},
  onStderr?: (text: string, child: ChildProcess) => void,
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/evals/bin.ts', ...args], {
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr, child);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('the gate', () => {
  it('fails compare when a broken prompt lowers a score, with per-scorer and per-case deltas', async () => {
    const baseline = await calculatorResults('Use the calculator.');
    const broken = await calculatorResults('Answer quickly.');
    expect(baseline.summary.exact!.mean).toBe(1);
    // 40+2 is 42 by luck: the guess gets one case right.
    expect(broken.summary.exact!.mean).toBe(0.5);
    const comparison = compare(baseline, broken, { thresholds: { maxScoreDrop: 0.1 } });
    expect(comparison.passed).toBe(false);
    expect(comparison.failures).toEqual([
      'exact mean fell 1 → 0.5 (-0.5)',
      'trajectory mean fell 1 → 0 (-1)',
    ]);
    expect(comparison.cases.map((c) => `${c.id} ${c.scorer} ${c.delta}`)).toEqual([
      '2+3 exact -1',
      '2+3 trajectory -1',
      '40+2 trajectory -1',
    ]);
    expect(comparison.datasetChanged).toBe(false);
    expect(compare(baseline, baseline).passed).toBe(true);
    expect(compare(broken, baseline).passed).toBe(true);
    const perCase = compare(baseline, broken, { thresholds: { maxScoreDrop: 1, maxCaseDrop: 0.5 } });
    expect(perCase.failures).toContain('case 2+3: exact fell 1 → 0');
    const rate = compare(baseline, broken, { thresholds: { maxScoreDrop: 1, minPassRate: { exact: 0.75 } } });
    expect(rate.failures).toEqual(['exact pass rate 0.5 is under 0.75']);
    expect(markdownComparison(comparison)).toContain('| exact | 1 | 0.5 | -0.5 |');
    expect(markdownSummary(broken)).toContain('| 2+3 | exact | expected The answer is 5. |');
  });

  it(
    'tandem-eval run writes the results and exits 1 against a better baseline; compare exits 1 too',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tandem-eval-cli-'));
      const good = await cli(['run', 'test/evals/fixtures/calculator.eval.ts', '--out', join(dir, 'good')]);
      expect(good.code, good.stderr).toBe(0);
      expect(good.stderr).toContain('✓ [');
      const baseline = join(dir, 'good', 'results.json');
      const results = JSON.parse(await readFile(baseline, 'utf8')) as EvalResults;
      expect(results.summary.exact).toEqual({ mean: 1, passRate: 1 });
      expect(await readFile(join(dir, 'good', 'report.html'), 'utf8')).toContain('<!doctype html>');
      const broken = await cli(
        [
          'run',
          'test/evals/fixtures/calculator.eval.ts',
          '--out',
          join(dir, 'broken'),
          '--baseline',
          baseline,
        ],
        { EVAL_PROMPT: 'Answer quickly.' },
      );
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain('Eval comparison: ❌ failed');
      const again = await cli([
        'compare',
        baseline,
        join(dir, 'broken', 'results.json'),
        '--max-score-drop',
        '0.9',
      ]);
      expect(again.code).toBe(1);
      expect(again.stdout).toContain('trajectory mean fell 1 → 0 (-1)');
      const same = await cli(['compare', baseline, baseline]);
      expect(same.code).toBe(0);
    },
    CHILD_TIMEOUT_MS * 4,
  );

  it(
    'on SIGINT keeps the cases that finished, written as they finished, and exits 130',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tandem-eval-sigint-'));
      let sent = false;
      const run = await cli(
        ['run', 'test/evals/fixtures/blocking.eval.ts', '--out', dir],
        {},
        (stderr, child) => {
          if (!sent && stderr.includes('[2/5]')) {
            sent = true;
            child.kill('SIGINT');
          }
        },
      );
      expect(run.code, run.stderr).toBe(130);
      const lines = (await readFile(join(dir, 'cases.jsonl'), 'utf8')).trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).id).sort()).toEqual(['0', '1']);
      const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as EvalResults;
      expect(results).toMatchObject({ aborted: true, dataset: { size: 5 } });
      expect(results.cases.map((c) => c.id)).toEqual(['0', '1']);
    },
    CHILD_TIMEOUT_MS,
  );

  it('reports a usage error with exit code 2', async () => {
    const lines: string[] = [];
    const code = await runEval(['frobnicate'], {
      stderr: { write: (t: string) => lines.push(t) },
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(lines.join('')).toContain('usage:');
    const dir = await mkdtemp(join(tmpdir(), 'tandem-eval-bad-'));
    await writeFile(join(dir, 'bad.json'), '{');
    const bad = await runEval(['compare', join(dir, 'bad.json'), join(dir, 'bad.json')], {
      stderr: { write: (t: string) => lines.push(t) },
      signal: new AbortController().signal,
    });
    expect(bad).toBe(2);
    expect(lines.join('')).toContain('Cannot read results');
  });
});
