// Cold import of the core entry (dist/index.js) over bare node: the time of
// `await import()` inside fresh processes, median of N (one priming process
// not counted). Beside it, importing zod alone, which every tool schema needs.
//   node bench/import.mjs --runs 11
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { options, report, stats } from './lib.mjs';

const opts = options({ runs: 11 });
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

function importMs(specifier) {
  const script = `const t=performance.now();await import(${JSON.stringify(specifier)});console.log(performance.now()-t)`;
  const samples = [];
  for (let i = 0; i <= opts.runs; i++) {
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    if (out.status !== 0) throw new Error(`import of ${specifier} failed: ${out.stderr}`);
    if (i > 0) samples.push(Number(out.stdout.trim()));
  }
  return stats(samples).median;
}

const core = importMs(entry);
const zod = importMs('zod');
report(
  [
    {
      path: "cold `import('tandem-agents')` over bare node",
      floor: `zod alone ${zod} ms`,
      value: `+${core} ms`,
      target: '≤ 40 ms',
    },
  ],
  opts.json,
  `core import, median of ${opts.runs} fresh processes (node ${process.version})`,
);
