import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transferArtifacts } from '../../src/sandbox/artifacts.js';
import { globToRegExp } from '../../src/sandbox/glob.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';

describe('globToRegExp', () => {
  const matches = (pattern: string, path: string) => globToRegExp(pattern).test(path);

  it('matches file names at any depth for patterns without a slash', () => {
    expect(matches('*.py', 'main.py')).toBe(true);
    expect(matches('*.py', 'src/deep/x.py')).toBe(true);
    expect(matches('*.py', 'main.pyc')).toBe(false);
    expect(matches('data?.csv', 'out/data1.csv')).toBe(true);
    expect(matches('data?.csv', 'data10.csv')).toBe(false);
  });

  it('anchors patterns with a slash at the root; * stays in one segment, ** spans segments', () => {
    expect(matches('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/*.ts', 'src/x/a.ts')).toBe(false);
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/x/y/a.ts')).toBe(true);
    expect(matches('src/**', 'src/x/y')).toBe(true);
    expect(matches('./out/*.json', 'out/r.json')).toBe(true);
    expect(matches('a+b(c).txt', 'a+b(c).txt')).toBe(true);
    expect(matches('a.txt', 'abtxt')).toBe(false);
  });
});

describe('transferArtifacts', () => {
  let from: LocalProcessSandbox;
  let to: LocalProcessSandbox;
  beforeEach(async () => {
    from = await LocalProcessSandbox.create();
    to = await LocalProcessSandbox.create();
  });
  afterEach(async () => {
    await from.dispose();
    await to.dispose();
  });

  it('copies files matching the patterns, keeping paths and bytes, never tandem internals', async () => {
    await from.writeFile('analysis/result.csv', 'a,b\n1,2\n');
    await from.writeFile('plot.png', new Uint8Array([137, 80, 78, 71, 0, 255]));
    await from.writeFile('notes.md', '# notes');
    await from.writeFile('ignored.log', 'log');
    await from.writeFile('.tandem/todo.md', '- [ ] x');
    const result = await transferArtifacts(from, to, { patterns: ['*.csv', '*.png', '*.md'] });
    expect(result.transferred.map((r) => r.path)).toEqual(['analysis/result.csv', 'notes.md', 'plot.png']);
    expect(result.skipped).toEqual([]);
    expect(await to.readFile('analysis/result.csv')).toBe('a,b\n1,2\n');
    expect(Array.from(await to.readBytes('plot.png'))).toEqual([137, 80, 78, 71, 0, 255]);
    await expect(to.readFile('ignored.log')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(to.readFile('.tandem/todo.md')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('stops at maxFiles and maxBytes and reports what it left behind', async () => {
    for (let i = 0; i < 5; i++) await from.writeFile(`f${i}.txt`, 'x'.repeat(10));
    await from.writeFile('big.txt', 'x'.repeat(100));
    const byCount = await transferArtifacts(from, to, { maxFiles: 3 });
    expect(byCount.transferred.map((r) => r.path)).toEqual(['big.txt', 'f0.txt', 'f1.txt']);
    expect(byCount.skipped.map((r) => [r.path, r.reason])).toEqual([
      ['f2.txt', 'max_files'],
      ['f3.txt', 'max_files'],
      ['f4.txt', 'max_files'],
    ]);
    const byBytes = await transferArtifacts(from, to, { maxBytes: 35 });
    expect(byBytes.transferred.map((r) => r.path)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(byBytes.bytes).toBe(30);
    expect(byBytes.skipped.map((r) => r.reason)).toEqual(['max_bytes', 'max_bytes', 'max_bytes']);
  });

  it('copies from a subdirectory into a target directory', async () => {
    await from.writeFile('out/report.json', '{}');
    await from.writeFile('other.json', '{}');
    const result = await transferArtifacts(from, to, { from: 'out', to: 'handoff', patterns: ['*.json'] });
    expect(result.transferred.map((r) => r.path)).toEqual(['out/report.json']);
    expect(await to.readFile('handoff/report.json')).toBe('{}');
  });
});
