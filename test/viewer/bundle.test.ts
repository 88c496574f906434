/**
 * What the browser downloads: the page script the handler serves, and what a
 * bundler takes from `tandem-agents/viewer`, both built with esbuild from
 * src/ — no zod, no js-tiktoken, no Node module, no HTML parsing of data, and
 * at most 60 KB gzipped. And the build's inlining of that script into the
 * server entry, which then serves it without reading a file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildViewerAssets } from '../../scripts/viewer-assets.js';
import { viewerAssets } from '../../tsup.config.js';

const LIMIT_GZIP_BYTES = 60 * 1024;
const FORBIDDEN_INPUT = /node_modules\/(zod|js-tiktoken)\/|^node:|src\/index\.ts$|src\/agents\//;
const HTML_SINKS = /innerHTML|outerHTML|insertAdjacentHTML|document\.write/;

describe('viewer browser bundle', () => {
  it('the page script stays under 60 KB gzipped and pulls in neither zod, js-tiktoken nor Node modules', async () => {
    const { script, style, inputs } = await buildViewerAssets();
    const gzip = gzipSync(script).length;
    console.log(
      `viewer page script: ${(script.length / 1024).toFixed(1)} KB minified, ${(gzip / 1024).toFixed(1)} KB gzip; stylesheet ${(gzipSync(style).length / 1024).toFixed(1)} KB gzip`,
    );
    expect(gzip).toBeLessThanOrEqual(LIMIT_GZIP_BYTES);
    expect(inputs.filter((path) => FORBIDDEN_INPUT.test(path))).toEqual([]);
    expect(script).not.toMatch(HTML_SINKS);
  });

  it('tandem-agents/viewer bundles for the browser without zod or js-tiktoken', async () => {
    const result = await build({
      entryPoints: ['src/viewer/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => FORBIDDEN_INPUT.test(path))).toEqual([]);
    expect(gzipSync(result.outputFiles[0]!.contents).length).toBeLessThanOrEqual(LIMIT_GZIP_BYTES);
  });

  it('the build inlines the page into the server entry, which serves it without building or reading files', async () => {
    const result = await build({
      entryPoints: ['src/viewer/server/index.ts'],
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      plugins: [viewerAssets],
    });
    const code = result.outputFiles[0]!.text;
    expect(code).not.toContain('viewer-assets');
    expect(code).not.toMatch(/from ["']node:|import\(["']node:/);
    const dir = mkdtempSync(join(tmpdir(), 'tandem-viewer-server-'));
    try {
      writeFileSync(join(dir, 'server.mjs'), code);
      const { createViewerHandler } = await import(pathToFileURL(join(dir, 'server.mjs')).href);
      const response: Response = await createViewerHandler().handle(
        new Request('http://localhost/viewer.js'),
      );
      expect(await response.text()).toBe((await buildViewerAssets()).script);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
