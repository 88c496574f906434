// Executor framework overhead with a zero-latency model: the workload of
// ../shared/bench-peers (tool `add` with zod args, K turns, P calls per turn,
// the fake model sums the tool results it sees), so figures compare.
//   npm run bench            (builds first; runs on dist/, what users get)
//   node --expose-gc bench/executor.mjs --runs 300 --K 10
// Every run is verified outside the timed region: text, model calls, tool calls.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { contextPerConversation, defineTool, Executor } from '../dist/index.js';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((s) => s.trim().split(/\s+/))
    .map(([k, v]) => [k, Number(v)]),
);
const opts = { K: 10, warmup: 50, runs: 300, heapRuns: 1000, minWarmupMs: 1000, ...args };
const counters = { model: 0, tool: 0 };
const zeroUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

const add = defineTool({
  name: 'add',
  description: 'Add two numbers and return the sum.',
  parameters: z.object({ a: z.number().describe('first addend'), b: z.number().describe('second addend') }),
  parallelSafe: true,
  execute: ({ a, b }) => {
    counters.tool++;
    return a + b;
  },
});

function scan(messages) {
  let n = 0;
  let sum = 0;
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      n++;
      sum += Number(part.content);
    }
  }
  return [n, sum];
}

function decide(messages, K, P) {
  counters.model++;
  const [n, sum] = scan(messages);
  const turn = n / P;
  if (turn < K - 1) {
    const calls = [];
    for (let j = 0; j < P; j++) {
      calls.push({
        type: 'tool_call',
        id: `call_${turn}_${j}`,
        name: 'add',
        arguments: `{"a":${turn + 1},"b":${j + 1}}`,
      });
    }
    return { calls };
  }
  return { text: `sum=${sum}` };
}

function fakeModel(K, P, stream) {
  const model = {
    id: 'bench:zero-latency',
    async generate(request) {
      const d = decide(request.messages, K, P);
      const content = d.calls ?? [{ type: 'text', text: d.text }];
      return {
        message: { role: 'assistant', content },
        finishReason: d.calls ? 'tool_calls' : 'stop',
        usage: zeroUsage,
      };
    },
  };
  if (stream) {
    model.stream = async function* (request) {
      const d = decide(request.messages, K, P);
      if (d.calls)
        for (const c of d.calls) yield { type: 'tool-call', id: c.id, name: c.name, arguments: c.arguments };
      else for (const ch of d.text) yield { type: 'text-delta', delta: ch };
      yield { type: 'finish', finishReason: d.calls ? 'tool_calls' : 'stop', usage: zeroUsage };
    };
  }
  return model;
}

function expectedText(K, P) {
  let s = 0;
  for (let t = 0; t < K - 1; t++) for (let j = 0; j < P; j++) s += t + 1 + (j + 1);
  return `sum=${s}`;
}

function variant(P, stream, withContext = false) {
  const { K } = opts;
  const executor = new Executor({
    context: withContext ? contextPerConversation({ contextWindow: 128_000 }) : undefined,
    model: fakeModel(K, P, stream),
    tools: [add],
    instructions: 'You are a calculator agent.',
    maxIterations: K + 5,
    stream,
  });
  return async () => {
    const run = executor.run('Add the numbers, please.');
    let events = 0;
    if (stream) for await (const _ of run) events++;
    const result = await run.result;
    return { text: result.output, events };
  };
}

async function verified(run, P, stream) {
  const m0 = counters.model;
  const t0 = counters.tool;
  const r = await run();
  const { K } = opts;
  if (
    r.text !== expectedText(K, P) ||
    counters.model - m0 !== K ||
    counters.tool - t0 !== (K - 1) * P ||
    (stream && !r.events)
  ) {
    throw new Error(
      `verification failed: ${JSON.stringify(r)} model=${counters.model - m0} tool=${counters.tool - t0}`,
    );
  }
  return r;
}

function stats(values) {
  const a = Float64Array.from(values).sort();
  const q = (p) => a[Math.min(a.length - 1, Math.ceil(p * a.length) - 1)];
  const mean = a.reduce((s, v) => s + v, 0) / a.length;
  const r = (v) => Math.round(v * 10) / 10;
  return { mean: r(mean), median: r(q(0.5)), p95: r(q(0.95)) };
}

async function time(P, stream, withContext = false) {
  const run = variant(P, stream, withContext);
  let events = 0;
  const start = performance.now();
  for (let i = 0; i < opts.warmup || performance.now() - start < opts.minWarmupMs; i++)
    events = (await verified(run, P, stream)).events;
  const perTurn = [];
  for (let i = 0; i < opts.runs; i++) {
    const s = process.hrtime.bigint();
    await verified(run, P, stream);
    perTurn.push(Number(process.hrtime.bigint() - s) / 1e3 / opts.K);
  }
  return { ...stats(perTurn), events };
}

async function heapGrowth() {
  if (typeof globalThis.gc !== 'function') return undefined;
  const run = variant(1, false);
  for (let i = 0; i < 100; i++) await verified(run, 1, false);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < opts.heapRuns; i++) await verified(run, 1, false);
  await new Promise((r) => setTimeout(r, 20));
  globalThis.gc();
  return Math.round((process.memoryUsage().heapUsed - before) / 1024);
}

function importMs() {
  const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const samples = [];
  for (let i = 0; i < 6; i++) {
    const out = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t=performance.now();await import(${JSON.stringify(entry)});console.log(performance.now()-t)`,
      ],
      { encoding: 'utf8' },
    );
    samples.push(Number(out.stdout.trim()));
  }
  return stats(samples.slice(1)).median;
}

const seq = await time(1, false);
const par = await time(4, false);
const str = await time(1, true);
const ctx = await time(1, false, true);
const heap = await heapGrowth();
const imp = importMs();
console.log(
  `tandem Executor overhead, zero-latency model, K=${opts.K} turns, ${opts.runs} timed runs (node ${process.version})`,
);
console.log('| variant | µs/turn median | mean | p95 | events/run |');
console.log('|:--|--:|--:|--:|--:|');
console.log(`| sequential (1 call/turn) | ${seq.median} | ${seq.mean} | ${seq.p95} | |`);
console.log(`| parallel (4 calls/turn) | ${par.median} | ${par.mean} | ${par.p95} | |`);
console.log(`| streaming (1 call/turn) | ${str.median} | ${str.mean} | ${str.p95} | ${str.events} |`);
console.log(`| sequential + token accounting | ${ctx.median} | ${ctx.mean} | ${ctx.p95} | |`);
console.log(
  `heap growth over ${opts.heapRuns} runs: ${heap === undefined ? 'n/a (run with --expose-gc)' : `${heap} KB`}`,
);
console.log(`core import (dist/index.js, median of 5 fresh processes): ${imp.toFixed(1)} ms`);
