import { describe, expect, it } from 'vitest';
import { importProbe } from '../support/import-probe.js';

const probe = importProbe('./test/model/fixtures/log-zod-imports.mjs', './test/model/fixtures/zod-probe.mjs');

describe('zod imported on first use', () => {
  it('importing the package entry loads no zod', async () => {
    const out = await probe();
    expect(out).toContain('IMPORTED');
    expect(out).not.toContain('ZOD-LOADED');
  });

  it("loads zod when one of tandem's own schemas is first used", async () => {
    const out = await probe('--validate');
    expect(out).toContain('VALID true');
    expect(out.indexOf('ZOD-LOADED')).toBeGreaterThan(out.indexOf('IMPORTED'));
  });
});
