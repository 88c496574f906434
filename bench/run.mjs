// `npm run bench`: every bench file in its own process (on dist/, built
// first), then one table with a row per path of the speed budget, the floor
// beside each, and the target.
//   node bench/run.mjs [--only executor,sse]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const FILES = ['executor', 'orchestrator', 'sse', 'import', 'queue'];
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1].split(',')
  : FILES;
const here = fileURLToPath(new URL('.', import.meta.url));

const rows = [];
for (const name of FILES.filter((f) => only.includes(f))) {
  process.stderr.write(`bench/${name}.mjs … `);
  const started = Date.now();
  const out = spawnSync(process.execPath, ['--expose-gc', `${here}${name}.mjs`, '--json'], {
    encoding: 'utf8',
  });
  const line = out.stdout.split('\n').find((l) => l.startsWith('ROWS '));
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (out.status !== 0 || !line) {
    rows.push({
      path: `bench/${name}.mjs`,
      floor: '',
      value: `failed: ${out.stderr.trim().split('\n').slice(-3).join(' ')}`,
      target: '',
    });
    continue;
  }
  rows.push(...JSON.parse(line.slice(5)));
}

report(
  rows,
  false,
  `tandem speed budget, medians (node ${process.version}, ${process.platform} ${process.arch})`,
);
