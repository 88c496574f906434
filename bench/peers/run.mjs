#!/usr/bin/env node
// Framework-overhead benchmark for TypeScript agent SDKs with a zero-latency
// scripted fake model. See README.md.
//
//   node run.mjs                 # 2 full rounds, prints tables, writes results.json
//   node run.mjs --rounds 1 --only baseline,ai-sdk --quick
//
// Options:
//   --rounds N        full rounds to run (default 2); each round re-spawns every
//                     worker and re-times the imports; round 2 runs in reverse order
//   --only a,b        subset of framework ids
//   --quick           small counts for a smoke run (warmup 5, runs 30, heap 100)
//   --K n --P n --warmup n --runs n --heap-runs n   override counts
//   --fresh-sizes     re-measure install sizes (otherwise cached in .cache/sizes.json)
//   --no-sizes        skip install-size measurement (needs the npm registry)
//   --out FILE        results file (default results.json)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedVersion, measureSize } from './lib/sizes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
process.chdir(HERE);

const KNOWN = ['baseline', 'openai-agents', 'ai-sdk', 'langgraph', 'langchain'];
// Any further adapter dropped into frameworks/ (e.g. frameworks/tandem.mjs) joins the run.
const FRAMEWORKS = [
  ...KNOWN,
  ...fs
    .readdirSync(path.join(HERE, 'frameworks'))
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => f.slice(0, -4))
    .filter((id) => !KNOWN.includes(id))
    .sort(),
];

// ---------- args ----------
const argv = process.argv.slice(2);
function arg(name, def) {
  const i = argv.indexOf(`--${name}`);
  if (i === -1) return def;
  const v = argv[i + 1];
  return v === undefined || v.startsWith('--') ? true : v;
}
const flag = (name) => argv.includes(`--${name}`);
const quick = flag('quick');
const cfg = {
  K: Number(arg('K', 10)),
  P: Number(arg('P', 4)),
  warmup: Number(arg('warmup', quick ? 5 : 30)),
  runs: Number(arg('runs', quick ? 30 : 300)),
  heapWarmup: Number(arg('heap-warmup', quick ? 10 : 100)),
  heapRuns: Number(arg('heap-runs', quick ? 100 : 1000)),
  minWarmupMs: Number(arg('min-warmup-ms', quick ? 100 : 1000)),
};
const rounds = Number(arg('rounds', 2));
const importRuns = Number(arg('import-runs', 5));
const only = arg('only', null);
const selected = only ? String(only).split(',') : FRAMEWORKS;
for (const id of selected)
  if (!FRAMEWORKS.includes(id)) throw new Error(`unknown framework ${id}; known: ${FRAMEWORKS.join(', ')}`);
const outFile = arg('out', 'results.json');

// ---------- metadata ----------
const metas = {};
for (const id of selected) metas[id] = (await import(`./frameworks/${id}.mjs`)).meta;

const VERSION_PKGS = [
  '@openai/agents',
  '@openai/agents-core',
  '@openai/agents-openai',
  'openai',
  'ai',
  '@ai-sdk/provider',
  '@ai-sdk/provider-utils',
  '@langchain/langgraph',
  '@langchain/langgraph-checkpoint',
  '@langchain/core',
  'langchain',
  'langsmith',
  'zod',
];
const versions = {};
for (const p of VERSION_PKGS) {
  try {
    versions[p] = installedVersion(p);
  } catch {
    versions[p] = null;
  }
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  const n = a.length;
  return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
};
const r1 = (v) => (v == null || Number.isNaN(v) ? v : Math.round(v * 10) / 10);

// ---------- per-framework worker ----------
function runWorker(id) {
  const t0 = Date.now();
  const res = spawnSync(process.execPath, ['--expose-gc', 'lib/worker.mjs', id, JSON.stringify(cfg)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      OPENAI_AGENTS_DISABLE_TRACING: '1',
      LANGSMITH_TRACING: 'false',
      LANGCHAIN_TRACING_V2: 'false',
    },
  });
  const line = (res.stdout || '').split('\n').find((l) => l.startsWith('RESULT '));
  const wallS = (Date.now() - t0) / 1000;
  if (res.status !== 0 || !line) {
    return {
      id,
      error: `exit ${res.status}: ${(res.stderr || '').trim().split('\n').slice(-6).join(' | ')}`,
      wallS,
    };
  }
  const out = JSON.parse(line.slice(7));
  const noise =
    (res.stdout || '').split('\n').filter((l) => l && !l.startsWith('RESULT ')).length +
    (res.stderr || '').trim().split('\n').filter(Boolean).length;
  return { ...out, consoleLines: noise, wallS };
}

// ---------- cold import ----------
const IMPORT_SCRIPT =
  'const t0 = performance.now();' +
  'for (const s of JSON.parse(process.env.BENCH_SPECS)) await import(s);' +
  'const t1 = performance.now();' +
  'process.stdout.write(JSON.stringify({ importMs: t1 - t0, readyMs: t1 }));';

function timeNode(args, env) {
  const s = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  const wallMs = Number(process.hrtime.bigint() - s) / 1e6;
  if (res.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${res.stderr}`);
  return { wallMs, out: res.stdout };
}

function coldImport(specs) {
  const args = ['--input-type=module', '-e', IMPORT_SCRIPT];
  const env = { BENCH_SPECS: JSON.stringify(specs) };
  timeNode(args, env); // prime the OS file cache; not counted
  const wall = [];
  const inproc = [];
  for (let i = 0; i < importRuns; i++) {
    const { wallMs, out } = timeNode(args, env);
    wall.push(wallMs);
    inproc.push(JSON.parse(out).importMs);
  }
  return {
    specs,
    runs: importRuns,
    wallMsMedian: r1(median(wall)),
    importMsMedian: r1(median(inproc)),
    wallMs: wall.map(r1),
    importMs: inproc.map(r1),
  };
}

function nodeStartup() {
  timeNode(['-e', '0']);
  const wall = [];
  for (let i = 0; i < importRuns; i++) wall.push(timeNode(['-e', '0']).wallMs);
  return r1(median(wall));
}

// ---------- table ----------
function table(headers, rows) {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells) =>
    '| ' +
    cells
      .map((c, i) => (i === 0 ? String(c ?? '').padEnd(w[i]) : String(c ?? '').padStart(w[i])))
      .join(' | ') +
    ' |';
  return [
    line(headers),
    `|${w.map((n, i) => (i === 0 ? `:${'-'.repeat(n + 1)}` : `${'-'.repeat(n + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

function printRound(round, res, sizes) {
  const base = res.baseline?.seq?.median;
  const main = [];
  const detail = [];
  for (const id of selected) {
    const r = res[id];
    const s = sizes[id];
    if (!r || r.error) {
      main.push([
        metas[id].label,
        'FAIL',
        '',
        '',
        '',
        '',
        '',
        r?.import?.importMsMedian,
        s?.diskMB,
        s?.packages,
      ]);
      detail.push([metas[id].label, r?.error ?? 'not run']);
      continue;
    }
    main.push([
      metas[id].label,
      r.seq.mean,
      r.seq.median,
      r.seq.p95,
      r.parallel.mean,
      r.stream.mean,
      r.heap.growthKBPer1000Runs,
      r.import?.importMsMedian,
      s?.diskMB ?? '',
      s?.packages ?? '',
    ]);
    detail.push([
      metas[id].label,
      base ? `${Math.round(r.seq.median / base)}x` : '',
      r.seq.gcPct,
      r.parallel.median,
      r.parallel.p95,
      r.stream.median,
      r.stream.p95,
      r.stream.eventsPerRun,
      `${r.heap.heapBeforeKB}/${r.heap.heapHalfKB}/${r.heap.heapAfterKB}`,
      r.import?.wallMsMedian,
      r.rssMB,
      r.consoleLines,
      r.wallS,
    ]);
  }
  console.log(
    `\n=== round ${round} (K=${cfg.K} turns/run, ${cfg.runs} timed runs after ${cfg.warmup} warm-up; parallel = ${cfg.P} tool calls/turn; heap over ${cfg.heapRuns} runs) ===`,
  );
  console.log(
    table(
      [
        'framework',
        'µs/turn mean',
        'median',
        'p95',
        `par${cfg.P} µs/turn`,
        'stream µs/turn',
        'heap KB/1000 runs',
        'import ms',
        'install MB',
        'pkgs',
      ],
      main,
    ),
  );
  console.log('');
  console.log(
    table(
      [
        'framework',
        'median vs base',
        'gc % (seq)',
        `par${cfg.P} median`,
        `par${cfg.P} p95`,
        'stream median',
        'stream p95',
        'stream events/run',
        'heap KB before/half/after',
        'import wall ms',
        'rss MB',
        'console lines',
        'worker s',
      ],
      detail.map((d) => (d.length === 2 ? [d[0], d[1], '', '', '', '', '', '', '', '', '', '', ''] : d)),
    ),
  );
}

// ---------- main ----------
console.log(
  `node ${process.version} on ${os.cpus().length}x ${os.cpus()[0]?.model ?? 'cpu'}, ${os.platform()} ${os.release()}`,
);
console.log(
  'versions:',
  Object.entries(versions)
    .map(([k, v]) => `${k}@${v}`)
    .join(' '),
);
console.log('config:', JSON.stringify({ ...cfg, rounds, importRuns }));

const sizes = {};
if (!flag('no-sizes')) {
  for (const id of selected) {
    try {
      sizes[id] = measureSize(metas[id], flag('fresh-sizes'));
    } catch (e) {
      sizes[id] = { error: String(e.message || e).split('\n')[0] };
    }
  }
}

const results = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    config: { ...cfg, rounds, importRuns },
    versions,
    frameworks: metas,
    units: {
      'seq/parallel/stream':
        'microseconds of wall time per model turn = run time / K (fake model, tool and verification-free)',
      heap: 'KB of heapUsed after gc, after heapRuns sequential runs vs before',
      import:
        'ms: importMsMedian = in-process time of the dynamic imports; wallMsMedian = spawn-to-exit of node -e',
      size: 'diskMB = du -sk of a fresh node_modules with only these packages; packages = installed package folders',
    },
  },
  nodeStartupMs: null,
  sizes,
  rounds: [],
};

for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? selected : [...selected].reverse();
  const res = {};
  for (const id of order) {
    process.stderr.write(`[round ${round}] ${id} ... `);
    res[id] = runWorker(id);
    process.stderr.write(res[id].error ? `FAILED ${res[id].error}\n` : `${res[id].wallS}s\n`);
  }
  for (const id of order) {
    try {
      res[id].import = coldImport(metas[id].imports);
    } catch (e) {
      res[id].import = { error: String(e.message || e).split('\n')[0] };
    }
  }
  const startup = nodeStartup();
  results.nodeStartupMs = startup;
  results.rounds.push({ round, order, nodeStartupMs: startup, results: res });
  printRound(round, res, sizes);
  console.log(`(bare \`node -e 0\` wall: ${startup} ms)`);
  fs.writeFileSync(outFile, JSON.stringify(results, null, 2));
}

console.log(`\nwrote ${outFile}`);
const failed = results.rounds.some((r) => Object.values(r.results).some((x) => x.error));
process.exit(failed ? 1 : 0);
