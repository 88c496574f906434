import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entry } from '../../tsup.config.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const tsconfig = JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8'));
const subpaths = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? '' : key.slice(2)))
  .sort();
const built = (subpath: string) => (subpath === '' ? 'index' : `${subpath}/index`);

describe('entry points', () => {
  it('every export has a build entry, and every build entry an export', () => {
    expect(Object.keys(entry).sort()).toEqual(subpaths.map(built).sort());
  });

  it('every subpath resolves with types under node10 (typesVersions), to its CJS declarations', () => {
    const mapped = pkg.typesVersions['*'] as Record<string, string[]>;
    expect(Object.keys(mapped).sort()).toEqual(subpaths.filter(Boolean));
    for (const subpath of subpaths.filter(Boolean)) {
      expect(mapped[subpath]).toEqual([`./dist/${subpath}/index.d.cts`]);
      expect(pkg.exports[`./${subpath}`].require.types).toBe(`./dist/${subpath}/index.d.cts`);
    }
  });

  it('every subpath is mapped to its source for the repository’s own typecheck', () => {
    const paths = tsconfig.compilerOptions.paths as Record<string, string[]>;
    for (const subpath of subpaths) {
      const name = subpath ? `tandem-agents/${subpath}` : 'tandem-agents';
      expect(paths[name], name).toEqual([`./${entry[built(subpath) as keyof typeof entry]}`]);
    }
  });
});
