import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { buildViewerAssets } from './scripts/viewer-assets.js';

/**
 * Subpath entry points by output path; every adapter gets its own so the core
 * never pulls one in. Tests read it to visit every entry's exports.
 */
export const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'openai/index': 'src/providers/openai/index.ts',
  'anthropic/index': 'src/providers/anthropic/index.ts',
  'gemini/index': 'src/providers/gemini/index.ts',
  'ai-sdk/index': 'src/providers/ai-sdk/index.ts',
  'ai-sdk-ui/index': 'src/ai-sdk-ui/index.ts',
  'ag-ui/index': 'src/ag-ui/index.ts',
  'sandbox/index': 'src/sandbox/index.ts',
  'pglite/index': 'src/pglite/index.ts',
  'postgres/index': 'src/postgres/index.ts',
  'redis/index': 'src/redis/index.ts',
  'search/index': 'src/search/index.ts',
  'fs/index': 'src/fs/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  'otel/index': 'src/otel/index.ts',
  'queue/index': 'src/queue/index.ts',
  'net/index': 'src/net/index.ts',
  'browser/index': 'src/browser/index.ts',
  'viewer/index': 'src/viewer/index.ts',
  'viewer/server/index': 'src/viewer/server/index.ts',
  'skills/index': 'src/skills/builtin/index.ts',
  'evals/index': 'src/evals/index.ts',
  'evals/vitest/index': 'src/evals/vitest.ts',
};

/**
 * The declarations are emitted once, as `.d.cts`; each ESM entry's `.d.ts`
 * re-exports its `.d.cts`. Each mode still resolves types of its own format
 * (what attw checks), at half the weight of a second full copy.
 */
async function writeEsmDeclarations(): Promise<void> {
  for (const name of Object.keys(entry)) {
    await writeFile(`dist/${name}.d.ts`, `export * from './${basename(name)}.cjs';\n`);
  }
}

/**
 * Re-indents one format's built JavaScript with tabs, wrapped at 120 columns,
 * by the repository's formatter (biome, semantics-preserving): esbuild's
 * two-space indentation is 70 KB more of the 3.6 MB budget. A config of its
 * own, because the repository's excludes `dist/`.
 */
async function tabIndent(extension: '.js' | '.cjs'): Promise<void> {
  const files = (await readdir('dist', { recursive: true, encoding: 'utf8' })).filter((file) =>
    file.endsWith(extension),
  );
  // Given no paths biome formats its working directory: never without one, and only ever inside dist/.
  if (files.length === 0) throw new Error(`tabIndent: no ${extension} files in dist/ to format`);
  const config = await mkdtemp(join(tmpdir(), 'tandem-dist-format-'));
  try {
    const options = { formatter: { indentStyle: 'tab', lineWidth: 120 } };
    await writeFile(join(config, 'biome.json'), JSON.stringify(options));
    const biome = resolve('node_modules', '@biomejs', 'biome', 'bin', 'biome');
    await promisify(execFile)(
      process.execPath,
      [biome, 'format', '--write', `--config-path=${config}`, ...files],
      {
        cwd: 'dist',
      },
    );
  } finally {
    await rm(config, { recursive: true, force: true });
  }
}

/**
 * The `tandem-eval` executable: src/evals/bin.ts is plain JavaScript importing
 * the ESM entry, copied as is; not an entry, as it runs the CLI when imported.
 */
async function writeEvalBin(): Promise<void> {
  await writeFile('dist/evals/bin.js', await readFile('src/evals/bin.ts', 'utf8'), { mode: 0o755 });
}

let viewerBuild: ReturnType<typeof buildViewerAssets> | undefined;

/**
 * Inlines the viewer page's script and stylesheet into
 * `tandem-agents/viewer/server` as strings, so its handler serves them on any
 * runtime without reading a file (src/viewer/server/bundled-assets.ts builds
 * them on first use instead when it runs from src/).
 */
export const viewerAssets: Plugin = {
  name: 'viewer-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]viewer[\\/]server[\\/]bundled-assets\.ts$/ }, async () => {
      // Built once for both formats.
      viewerBuild ??= buildViewerAssets();
      const { script, style } = await viewerBuild;
      const assets = JSON.stringify({ script, style });
      return { loader: 'ts', contents: `export async function bundledAssets() { return ${assets}; }` };
    });
  },
};

// Both builds split shared modules into chunks, so each class exists once per
// build and `instanceof` holds across subpaths by plain identity. Not minified
// and no source maps: a stack trace's `file:line` is a line a user can read in
// node_modules (a minified build put whole modules on one line), within
// 3.6 MB unpacked, where maps with their sources would triple the install.
// test/package/stack-traces.test.ts holds both.
const shared = {
  entry,
  sourcemap: false,
  target: 'es2022',
  splitting: true,
  // With it Rollup turns split chunks into CommonJS; without, sucrase does and rewrites `?.`/`??` into helpers.
  treeshake: true,
  esbuildPlugins: [viewerAssets] as Plugin[],
} as const;

export default defineConfig([
  // The only `clean`: it runs first, before either build writes a file.
  {
    ...shared,
    format: ['esm'],
    clean: true,
    onSuccess: async () => {
      await writeEsmDeclarations();
      await tabIndent('.js');
      await writeEvalBin();
    },
  },
  {
    ...shared,
    format: ['cjs'],
    dts: true,
    // p-limit is ESM-only; CJS consumers get it bundled so `require` never meets ESM (Node 18 cannot require ESM).
    noExternal: ['p-limit', 'yocto-queue'],
    onSuccess: () => tabIndent('.cjs'),
  },
]);
