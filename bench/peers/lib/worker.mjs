// Measures one framework in a fresh process:
//   node --expose-gc lib/worker.mjs <adapter-id> '<json options>'
// Prints one line `RESULT <json>` on stdout.
//
// Every run (warm-up, timed, heap) is verified outside the timed region: the final
// text must be `sum=<expected>`, the fake model must have been called exactly K
// times and the tool exactly (K-1)*P times. A framework that skips turns or tools
// fails loudly instead of producing a meaningless number.
import { PerformanceObserver } from 'node:perf_hooks';
import { counters, expectedText } from './common.mjs';

const [, , id, rawOpts] = process.argv;
const opts = {
  K: 10,
  P: 4,
  warmup: 30,
  runs: 300,
  heapWarmup: 50,
  heapRuns: 1000,
  minWarmupMs: 1000, // warm up for at least this long too, so fast loops also reach optimized code
  ...(rawOpts ? JSON.parse(rawOpts) : {}),
};

if (typeof globalThis.gc !== 'function') {
  console.error('worker needs --expose-gc');
  process.exit(2);
}

const mod = await import(`../frameworks/${id}.mjs`);

// GC time observed while the timed runs execute (explains mean >> median).
// Entries arrive asynchronously, so keep them and attribute by start time.
const gcEntries = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcEntries.push([e.startTime, e.duration]);
});
gcObserver.observe({ entryTypes: ['gc'] });
const flushGc = () => new Promise((resolve) => setTimeout(resolve, 20));
function gcWithin(t0, t1) {
  let ms = 0;
  let n = 0;
  for (const [start, dur] of gcEntries) {
    if (start >= t0 && start < t1) {
      ms += dur;
      n++;
    }
  }
  gcEntries.length = 0;
  return { ms, n };
}

function verify(r, m0, t0, K, P, stream, phase) {
  const want = expectedText(K, P);
  const dm = counters.model - m0;
  const dt = counters.tool - t0;
  if (r?.text !== want || dm !== K || dt !== (K - 1) * P || (stream && !(r.events > 0))) {
    throw new Error(
      `${id} ${phase}: verification failed: text=${JSON.stringify(r?.text)} want=${want} ` +
        `modelCalls=${dm} want=${K} toolCalls=${dt} want=${(K - 1) * P} events=${r?.events}`,
    );
  }
}

async function verifiedRun(run, K, P, stream, phase) {
  const m0 = counters.model;
  const t0 = counters.tool;
  const r = await run();
  verify(r, m0, t0, K, P, stream, phase);
  return r;
}

function stats(values) {
  const a = Float64Array.from(values).sort();
  const n = a.length;
  const mean = a.reduce((s, v) => s + v, 0) / n;
  const q = (p) => a[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))];
  const sd = Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
  const r = (v) => Math.round(v * 10) / 10;
  return {
    n,
    mean: r(mean),
    median: r(q(0.5)),
    p95: r(q(0.95)),
    p99: r(q(0.99)),
    min: r(a[0]),
    max: r(a[n - 1]),
    sd: r(sd),
  };
}

async function timeVariant(P, stream) {
  const { K, warmup, runs } = opts;
  const run = await mod.create({ K, P, stream });
  const phase = `P=${P}${stream ? ' stream' : ''}`;
  let events = 0;
  const warmStart = performance.now();
  let warmRuns = 0;
  while (warmRuns < warmup || performance.now() - warmStart < opts.minWarmupMs) {
    const r = await verifiedRun(run, K, P, stream, `${phase} warm-up`);
    events = r.events ?? 0;
    warmRuns++;
  }
  await flushGc();
  gcEntries.length = 0;
  const wall0 = performance.now();
  const perTurnUs = new Array(runs);
  for (let i = 0; i < runs; i++) {
    const m0 = counters.model;
    const t0 = counters.tool;
    const s = process.hrtime.bigint();
    const r = await run();
    const e = process.hrtime.bigint();
    verify(r, m0, t0, K, P, stream, phase);
    perTurnUs[i] = Number(e - s) / 1e3 / K;
  }
  const wall1 = performance.now();
  await flushGc();
  const gc = gcWithin(wall0, wall1);
  return {
    ...stats(perTurnUs),
    eventsPerRun: stream ? events : undefined,
    warmupRuns: warmRuns,
    gcCount: gc.n,
    gcPct: Math.round((gc.ms / (wall1 - wall0)) * 1000) / 10,
    samples: perTurnUs.map((v) => Math.round(v * 10) / 10),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function heapGrowth() {
  const { K, heapWarmup, heapRuns } = opts;
  const run = await mod.create({ K, P: 1, stream: false });
  for (let i = 0; i < heapWarmup; i++) await verifiedRun(run, K, 1, false, 'heap warm-up');
  await settle();
  globalThis.gc();
  globalThis.gc();
  const h0 = process.memoryUsage().heapUsed;
  const half = Math.floor(heapRuns / 2);
  let hHalf;
  for (let i = 0; i < heapRuns; i++) {
    await verifiedRun(run, K, 1, false, 'heap');
    if (i + 1 === half) {
      await settle();
      globalThis.gc();
      globalThis.gc();
      hHalf = process.memoryUsage().heapUsed;
    }
  }
  await settle();
  globalThis.gc();
  globalThis.gc();
  const h1 = process.memoryUsage().heapUsed;
  return {
    runs: heapRuns,
    heapBeforeKB: Math.round(h0 / 1024),
    heapHalfKB: Math.round(hHalf / 1024),
    heapAfterKB: Math.round(h1 / 1024),
    growthKB: Math.round((h1 - h0) / 1024),
    growthKBPer1000Runs: Math.round(((h1 - h0) / 1024) * (1000 / heapRuns)),
  };
}

const result = { id, opts };
result.seq = await timeVariant(1, false);
result.parallel = await timeVariant(opts.P, false);
result.stream = await timeVariant(1, true);
result.heap = await heapGrowth();
result.rssMB = Math.round(process.memoryUsage().rss / 1048576);
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
