/**
 * The README's speed table is reproducible from the repository: the peer
 * benchmark lives in bench/peers with the peer SDKs as its own locked
 * dependencies, `npm run bench:peers` installs them there, and the table's
 * header names the statistic its figures are.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const peers = join(root, 'bench/peers');
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

/** Bare package names a module imports (statically or dynamically), without subpaths. */
function importedPackages(source: string): string[] {
  const specs = [...source.matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)].map((m) => m[1]!);
  return specs
    .filter((s) => !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('the peer benchmark in bench/peers', () => {
  it('locks every package its adapters import as its own dependency, and npm run bench:peers runs it', async () => {
    const pkg = await readJson(join(peers, 'package.json'));
    const lock = await readJson(join(peers, 'package-lock.json'));
    const project = await readJson(join(root, 'package.json'));
    const deps = Object.keys(pkg.dependencies).sort();
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    for (const name of deps)
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(pkg.dependencies[name]);
    const adapters = ['baseline', 'ai-sdk', 'openai-agents', 'langgraph', 'langchain', 'tandem'];
    const imported = new Set<string>();
    for (const id of adapters) {
      const source = await readFile(join(peers, 'frameworks', `${id}.mjs`), 'utf8');
      for (const name of importedPackages(source)) imported.add(name);
    }
    for (const lib of ['common', 'lc-scripted-model', 'sizes', 'worker'])
      for (const name of importedPackages(await readFile(join(peers, 'lib', `${lib}.mjs`), 'utf8')))
        imported.add(name);
    expect([...imported].filter((name) => !deps.includes(name))).toEqual([]);
    expect(deps).toEqual(expect.arrayContaining(['@langchain/langgraph', '@openai/agents', 'ai']));
    expect(project.scripts['bench:peers']).toBe('bash bench/peers/run.sh');
  });

  it('is run by a script that installs bench/peers from its lockfile and reads nothing outside the repository', async () => {
    const script = await readFile(join(peers, 'run.sh'), 'utf8');
    expect(script).toMatch(/npm ci --prefix "\$here"/);
    expect(script).not.toContain('shared');
    expect(script).not.toMatch(/\$root\/\.\./);
  });
});

describe("the README's speed table", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tandem-peers-table-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A results.json of two rounds whose per-round medians (10 and 30) differ from the pooled one. */
  function results(): object {
    const variant = (samples: number[]) => ({ median: samples[1], samples });
    const round = (samples: number[]) => ({
      results: {
        tandem: { seq: variant(samples), parallel: variant(samples), stream: variant(samples) },
      },
    });
    return {
      meta: {
        date: '2026-11-27T00:00:00.000Z',
        node: 'v20.20.2',
        cpus: 2,
        cpuModel: 'Test CPU',
        platform: 'linux test x64',
        config: { P: 4, runs: 3 },
      },
      rounds: [round([1, 10, 11]), round([12, 30, 40])],
    };
  }

  it('shows the median of every timed run of every round, and says so', async () => {
    const readme = join(dir, 'README.md');
    const resultsFile = join(dir, 'results.json');
    await writeFile(readme, 'before\n<!-- speed-table -->\nold\n<!-- /speed-table -->\nafter\n');
    await writeFile(resultsFile, JSON.stringify(results()));
    await exec(process.execPath, [join(peers, 'readme-table.mjs'), resultsFile, readme]);
    const text = await readFile(readme, 'utf8');
    // Pooled samples 1 10 11 12 30 40: the median is (11 + 12) / 2, not a round's 10 or 30.
    expect(text).toContain('| **tandem** | **11.5** | **11.5** | **11.5** |');
    expect(text).toContain('Median of all 6 timed runs per cell (2 rounds × 3, pooled), 2026-11-27');
    expect(text.startsWith('before\n<!-- speed-table -->\n')).toBe(true);
    expect(text.endsWith('<!-- /speed-table -->\nafter\n')).toBe(true);
  });
});
