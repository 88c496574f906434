/** `evaluate` and datasets: hashing, schemas, concurrency, trials, aborts and the clock seam. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  consoleProgress,
  DatasetError,
  dataset,
  datasetHash,
  evaluate,
  exactMatch,
  loadDataset,
  passAtK,
  scorer,
} from '../../src/evals/index.js';
import { FakeClock, flush } from '../../src/testing/index.js';

const cases = [
  { input: 'a', expected: 'A' },
  { input: 'b', expected: 'B' },
  { input: 'c', expected: 'C', metadata: { tag: 'x' } },
];

describe('datasets', () => {
  it('hash the canonical JSONL: key order does not matter, content does', async () => {
    const one = await dataset([{ input: { x: 1, y: 2 }, expected: 'k' }]);
    const two = await dataset([{ expected: 'k', input: { y: 2, x: 1 } }]);
    const three = await dataset([{ input: { x: 1, y: 3 }, expected: 'k' }]);
    expect(one.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(two.hash).toBe(one.hash);
    expect(three.hash).not.toBe(one.hash);
    expect(datasetHash(one.cases)).toBe(one.hash);
  });

  it('load JSONL files and check every case against the schemas', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-evals-'));
    const file = join(dir, 'cases.jsonl');
    await writeFile(
      file,
      '{"input": {"q": "2+2"}, "expected": 4}\n\n{"id": "b", "input": {"q": "3+3"}, "expected": 6}\n',
    );
    const input = z.object({ q: z.string() });
    const loaded = await loadDataset(file, { input, expected: z.number() });
    expect(loaded.name).toBe(file);
    expect(loaded.cases.map((c) => c.id)).toEqual(['0', 'b']);
    expect(loaded.cases[1]!.input.q).toBe('3+3');
    await writeFile(file, '{"input": {"q": 2}}\n');
    const bad = loadDataset(file, { input });
    await expect(bad).rejects.toBeInstanceOf(DatasetError);
    await expect(loadDataset(file, { input })).rejects.toThrow(/Case 1 input does not match its schema: q/);
    await writeFile(file, '{"input": 1}\n{oops\n');
    await expect(loadDataset(file)).rejects.toThrow(/line 2 is not JSON/);
    await expect(
      dataset([
        { input: 1, id: 'x' },
        { input: 2, id: 'x' },
      ]),
    ).rejects.toThrow(/appears twice/);
  });
});

describe('evaluate', () => {
  it('scores every case, keeps dataset order and the hash, and sums usage', async () => {
    const data = await dataset(cases);
    const results = await evaluate({
      dataset: data,
      task: (input: string) => (input === 'b' ? 'wrong' : input.toUpperCase()),
      scorers: [exactMatch()],
    });
    expect(results.dataset).toEqual({ name: 'dataset', hash: data.hash, size: 3 });
    expect(results.cases.map((c) => [c.id, c.scores.exact!.mean])).toEqual([
      ['0', 1],
      ['1', 0],
      ['2', 1],
    ]);
    expect(results.cases[2]!.metadata).toEqual({ tag: 'x' });
    expect(results.summary.exact).toEqual({ mean: 2 / 3, passRate: 2 / 3 });
    expect(results.aborted).toBe(false);
  });

  it('never runs more trials at once than the concurrency limit', async () => {
    let active = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const data = await dataset(Array.from({ length: 8 }, (_, i) => ({ input: i })));
    const done = evaluate({
      dataset: data,
      concurrency: 3,
      task: async (input: number) => {
        active++;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => release.push(resolve));
        active--;
        return input;
      },
      scorers: [],
    });
    for (let round = 0; round < 8; round++) {
      await flush();
      expect(active).toBeLessThanOrEqual(3);
      release.shift()?.();
    }
    const results = await done;
    expect(most).toBe(3);
    expect(results.cases).toHaveLength(8);
  });

  it('repeats trials and reports pass@k and variance per case', async () => {
    const data = await dataset([{ input: 'flaky' }, { input: 'steady' }]);
    const results = await evaluate({
      dataset: data,
      trials: 4,
      concurrency: 1,
      task: (input: string, { trial }) => (input === 'steady' || trial === 2 ? 'ok' : 'no'),
      scorers: [scorer('ok', ({ output }) => output === 'ok')],
    });
    const [flaky, steady] = results.cases;
    expect(flaky!.trials).toHaveLength(4);
    expect(flaky!.scores.ok).toEqual({ mean: 0.25, variance: 0.1875, passes: 1, passAtK: 1 });
    expect(steady!.scores.ok).toEqual({ mean: 1, variance: 0, passes: 4, passAtK: 1 });
    expect(passAtK(4, 1, 1)).toBe(0.25);
    expect(passAtK(4, 0, 4)).toBe(0);
  });

  it('measures latency on the runtime clock and records a throwing task as an error', async () => {
    const clock = new FakeClock(1000);
    const data = await dataset([{ input: 5 }, { input: -1 }]);
    const results = await evaluate({
      dataset: data,
      runtime: { clock },
      task: async (input: number) => {
        if (input < 0) throw new RangeError('negative');
        await clock.advance(input * 100);
        return input;
      },
      scorers: [scorer('positive', ({ output }) => (output as number) > 0)],
    });
    expect(results.cases[0]!.trials[0]!.latencyMs).toBe(500);
    expect(results.cases[1]!.trials[0]).toMatchObject({
      status: 'failed',
      error: { kind: 'exception', message: 'negative' },
    });
    expect(results.cases[1]!.scores.positive!.mean).toBe(0);
    expect(results.durationMs).toBe(500);
  });

  it('stops on abort, keeps the cases that finished and reports each as it finishes', async () => {
    const controller = new AbortController();
    const data = await dataset(Array.from({ length: 5 }, (_, i) => ({ input: i })));
    const seen: string[] = [];
    const results = await evaluate({
      dataset: data,
      concurrency: 1,
      signal: controller.signal,
      task: (input: number, { signal }) => {
        if (input === 2) {
          controller.abort();
          expect(signal.aborted).toBe(true);
        }
        return input;
      },
      scorers: [],
      onCase: (result, progress) => {
        seen.push(`${result.id} ${progress.done}/${progress.total}`);
      },
    });
    expect(results.aborted).toBe(true);
    expect(results.cases.map((c) => c.id)).toEqual(['0', '1']);
    expect(seen).toEqual(['0 1/5', '1 2/5']);
  });

  it('gives a scorer that throws 0 with the reason, and clamps scores to 0–1', async () => {
    const data = await dataset([{ input: 1 }]);
    const results = await evaluate({
      dataset: data,
      task: (x: number) => x,
      scorers: [
        scorer('boom', () => {
          throw new Error('no');
        }),
        scorer('big', () => 7),
      ],
    });
    expect(results.cases[0]!.trials[0]!.scores).toEqual({
      boom: { score: 0, reason: 'scorer failed: no' },
      big: { score: 1, reason: 'big = 7' },
    });
  });

  it('shows a progress bar redrawn in place on a TTY, one line per case otherwise', async () => {
    const data = await dataset([
      { input: 'a', expected: 'a' },
      { input: 'b', expected: 'x' },
    ]);
    const written = { tty: [] as string[], pipe: [] as string[] };
    const tty = consoleProgress({ isTTY: true, write: (t: string) => written.tty.push(t) });
    const pipe = consoleProgress({ write: (t: string) => written.pipe.push(t) });
    await evaluate({
      dataset: data,
      concurrency: 1,
      runtime: { clock: new FakeClock() },
      task: (s: string) => s,
      scorers: [exactMatch()],
      onCase: (result, progress) => {
        tty(result, progress);
        pipe(result, progress);
      },
    });
    expect(written.tty).toEqual([
      `\r\x1b[2K${'█'.repeat(15)}${'░'.repeat(15)} 1/2 0`,
      `\r\x1b[2K${'█'.repeat(30)} 2/2 1\n`,
    ]);
    expect(written.pipe).toEqual(['✓ [1/2] 0  exact 1 (0 ms)\n', '✗ [2/2] 1  exact 0 (0 ms)\n']);
  });
});
