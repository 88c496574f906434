import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

async function probe(...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/context/fixtures/log-rank-imports.mjs',
      './test/context/fixtures/import-probe.mjs',
      ...args,
    ],
    { cwd: root },
  );
  return stdout;
}

describe('lazy tiktoken rank data', () => {
  it('importing the package entry and the context layer loads no rank data', async () => {
    const out = await probe();
    expect(out).toContain('IMPORTED');
    expect(out).not.toContain('RANK-DATA-LOADED');
  });

  it('loads only the encoding a counter needs, on first use', async () => {
    const out = await probe('--count');
    const loaded = out.split('\n').filter((line) => line.startsWith('RANK-DATA-LOADED'));
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toContain('o200k_base');
    expect(out).toContain('COUNT 2 true');
  });
});
