/**
 * Builds the viewer page's script and stylesheet from src/viewer with
 * esbuild: the build inlines them into `tandem-agents/viewer/server` (see
 * tsup.config.ts), the repository's own runs (tests, `npm run demo`) build
 * them on first use, and the bundle-size test measures them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

/** The built assets, and the source files the script was bundled from. */
export interface BuiltViewerAssets {
  script: string;
  style: string;
  inputs: string[];
}

const root = new URL('../', import.meta.url);

/** The page script (src/viewer/page.ts, minified ES module for browsers) and the minified stylesheet. */
export async function buildViewerAssets(): Promise<BuiltViewerAssets> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('src/viewer/page.ts', root))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const css = await transform(await readFile(new URL('src/viewer/viewer.css', root), 'utf8'), {
    loader: 'css',
    minify: true,
  });
  return {
    script: result.outputFiles[0]!.text,
    style: css.code,
    inputs: Object.keys(result.metafile.inputs),
  };
}
