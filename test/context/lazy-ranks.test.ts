import { describe, expect, it } from 'vitest';
import { importProbe } from '../support/import-probe.js';

const probe = importProbe(
  './test/context/fixtures/log-rank-imports.mjs',
  './test/context/fixtures/import-probe.mjs',
);

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
