/**
 * The committed API reports (api/*.api.md) match the built package, so every
 * change to a public name or declaration is deliberate and shows in review;
 * and the root entry stays a curated surface of at most 150 runtime names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiReports, committedReports, firstDifference, runtimeExports } from '../../scripts/api-report.js';
import { assertBuilt } from './built-package.js';

describe('API reports', () => {
  let built: Map<string, string>;
  beforeAll(() => {
    assertBuilt();
    built = apiReports();
  }, 30_000);

  it('cover every entry point, and only those', () => {
    expect([...committedReports().keys()].sort(), 'run `npm run api` to regenerate api/').toEqual(
      [...built.keys()].sort(),
    );
  });

  it('match the built declarations of every entry point', () => {
    const committed = committedReports();
    const stale = [...built]
      .filter(([file, text]) => committed.has(file) && committed.get(file) !== text)
      .map(([file, text]) => `api/${file} (${firstDifference(text, committed.get(file) ?? '')})`);
    expect(
      stale,
      'the public API differs from api/*.api.md: if the change is intended, run `npm run api` and commit api/',
    ).toEqual([]);
  });
});

describe('the root entry', () => {
  it('has at most 150 runtime exports, the same in the ESM and the CJS build', () => {
    const { esm, cjs } = runtimeExports(['tandem-agents'])['tandem-agents']!;
    expect(
      esm.length,
      'runtime exports of src/index.ts: keep machinery out of the root entry',
    ).toBeLessThanOrEqual(150);
    expect(cjs).toEqual(esm);
  });
});
