import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot } from './built-package.js';

interface PackedFile {
  path: string;
  size: number;
}

describe('install weight', () => {
  assertBuilt();
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: packageRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ unpackedSize: number; files: PackedFile[] }];

  // Unminified, so stack traces point at readable lines (stack-traces.test.ts): about 3.1 MB. The
  // viewer (its page inlined), the built-in skills, the stores (PGlite, Postgres), the browser, search
  // and UI-protocol adapters are subpaths, paid for on disk only; what an app loads is what it imports
  // (the cold import of the root is held by the bench).
  it('tandem’s own files in the tarball stay under 3.6 MB unpacked', () => {
    expect(packed.unpackedSize).toBeLessThanOrEqual(3_600_000);
  });

  it('ships no source maps and no second full copy of the declarations', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    const esmDeclarations = packed.files.filter((f) => f.path.endsWith('.d.ts'));
    for (const file of esmDeclarations) expect(file.size, file.path).toBeLessThan(200);
  });

  it('ships only the build, the readme, the changelog and package.json', () => {
    const top = new Set(packed.files.map((f) => f.path.split('/')[0]));
    expect([...top].sort()).toEqual(['CHANGELOG.md', 'README.md', 'dist', 'package.json']);
  });
});
