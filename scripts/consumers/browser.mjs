/**
 * The browser bundle: esbuild bundles everything the core entry exports for
 * `platform: 'browser'`. Fails if any input or the output touches a `node:`
 * module; prints the minified and gzipped sizes.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const result = await build({
  stdin: { contents: "export * from 'tandem-agents';", resolveDir: process.cwd(), loader: 'js' },
  bundle: true,
  platform: 'browser',
  format: 'esm',
  minify: true,
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const code = result.outputFiles[0].contents;
const text = new TextDecoder().decode(code);
const nodeInputs = Object.keys(result.metafile.inputs).filter((path) => path.includes('node:'));
const nodeImports = text.match(/["'`]node:[\w/]+["'`]/g) ?? [];
if (nodeInputs.length > 0 || nodeImports.length > 0) {
  console.error('the browser bundle touches Node modules:', [...new Set([...nodeInputs, ...nodeImports])]);
  process.exit(1);
}
const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
const largest = Object.entries(result.metafile.outputs)[0][1].inputs;
const top = Object.entries(largest)
  .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
  .slice(0, 3)
  .map(([path, input]) => `${path.replace(/^.*node_modules\//, '')} ${kB(input.bytesInOutput)}`);
console.log(`browser bundle ok: ${kB(code.length)} minified, ${kB(gzipSync(code).length)} gzipped`);
console.log(`largest inputs: ${top.join(', ')}`);
