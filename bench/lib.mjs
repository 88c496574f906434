// Shared by the bench files: options, timing, statistics, the peer benchmark's
// workload (tool `add` with zod args, K turns, P calls per turn, a fake model
// that sums the tool results it sees) and the hand-written loop on that
// workload, the floor every row is compared with.
import { z } from 'zod';

/** `--name value` pairs of the command line over `defaults`; `--json` prints rows as JSON. */
export function options(defaults) {
  const out = { ...defaults, json: false };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'json') out.json = true;
    else out[name] = Number(argv[++i]);
  }
  return out;
}

export const r1 = (v) => Math.round(v * 10) / 10;

/** Median, mean and p95 of `values`, one decimal. */
export function stats(values) {
  const a = Float64Array.from(values).sort();
  const q = (p) => a[Math.min(a.length - 1, Math.max(0, Math.ceil(p * a.length) - 1))];
  const mean = a.reduce((s, v) => s + v, 0) / a.length;
  return { median: r1(q(0.5)), mean: r1(mean), p95: r1(q(0.95)) };
}

/** Runs `fn` through a warm-up (at least `warmup` calls and `minWarmupMs`), then `runs` timed calls; µs per call / `per`. */
export async function timeRuns(fn, { warmup = 50, runs = 300, minWarmupMs = 1000, per = 1 } = {}) {
  const start = performance.now();
  for (let i = 0; i < warmup || performance.now() - start < minWarmupMs; i++) await fn();
  const samples = new Array(runs);
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    await fn();
    samples[i] = Number(process.hrtime.bigint() - s) / 1e3 / per;
  }
  return stats(samples);
}

/** Prints `rows` (`{ path, floor, value, target, note? }`) as JSON for bench/run.mjs, or as a table. */
export function report(rows, json, title) {
  if (json) {
    console.log(`ROWS ${JSON.stringify(rows)}`);
    return;
  }
  if (title) console.log(title);
  console.log('| path | floor | tandem | target |');
  console.log('| --- | --: | --: | --: |');
  for (const row of rows) console.log(`| ${row.path} | ${row.floor ?? '—'} | ${row.value} | ${row.target} |`);
}

// ---------- the workload ----------

export const counters = { model: 0, tool: 0 };
export const zeroUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
/** A fake model's text reply. */
export const reply = (text) => ({
  message: { role: 'assistant', content: [{ type: 'text', text }] },
  finishReason: 'stop',
  usage: zeroUsage,
});
export const addSchema = z.object({
  a: z.number().describe('first addend'),
  b: z.number().describe('second addend'),
});
export const SYSTEM_PROMPT = 'You are a calculator agent.';
export const USER_PROMPT = 'Add the numbers, please.';

export function addImpl({ a, b }) {
  counters.tool++;
  return a + b;
}

/** The benchmark's `add` tool, defined with tandem's `defineTool` (passed in: this file does not import dist/). */
export function addTool(defineTool) {
  return defineTool({
    name: 'add',
    description: 'Add two numbers and return the sum.',
    parameters: addSchema,
    parallelSafe: true,
    execute: addImpl,
  });
}

/** The fake model's decision: P calls while fewer than K-1 turns of results were seen, then the sum. */
export function decide(n, sum, K, P) {
  counters.model++;
  const turn = n / P;
  if (turn < K - 1) {
    const calls = new Array(P);
    for (let j = 0; j < P; j++) {
      calls[j] = { id: `call_${turn}_${j}`, name: 'add', arguments: `{"a":${turn + 1},"b":${j + 1}}` };
    }
    return { calls };
  }
  return { text: `sum=${sum}` };
}

export function expectedText(K, P) {
  let s = 0;
  for (let t = 0; t < K - 1; t++) for (let j = 0; j < P; j++) s += t + 1 + (j + 1);
  return `sum=${s}`;
}

/**
 * A verified run: calls `run` and throws unless it made K model calls and
 * (K-1)·P tool calls and answered the right sum.
 */
export function verified(K, P, run) {
  return async () => {
    const model = counters.model;
    const tool = counters.tool;
    const text = await run();
    const models = counters.model - model;
    const tools = counters.tool - tool;
    if (text !== expectedText(K, P) || models !== K || tools !== (K - 1) * P) {
      throw new Error(`verification failed: ${text} model=${models} tool=${tools}`);
    }
  };
}

// ---------- the floor: a hand-written loop on the same workload ----------

const floorTool = { schema: addSchema, execute: async (args) => addImpl(args) };

function scanFloor(messages) {
  let n = 0;
  let sum = 0;
  for (const m of messages) {
    if (m.role === 'tool') {
      n++;
      sum += Number(m.content);
    }
  }
  return [n, sum];
}

async function floorTurn(messages, K, P) {
  const d = decide(...scanFloor(messages), K, P);
  return d.calls
    ? { role: 'assistant', content: '', calls: d.calls }
    : { role: 'assistant', content: d.text, calls: [] };
}

async function* floorStream(messages, K, P) {
  const d = decide(...scanFloor(messages), K, P);
  if (d.calls) for (const c of d.calls) yield { type: 'tool-call', call: c };
  else for (const delta of d.text) yield { type: 'text-delta', delta };
  yield { type: 'finish' };
}

async function runFloorTool(call) {
  const args = floorTool.schema.parse(JSON.parse(call.arguments));
  const result = await floorTool.execute(args);
  return { role: 'tool', id: call.id, content: JSON.stringify(result) };
}

/** One run of the hand loop: messages array, zod-checked calls, `Promise.all` over a turn's calls. */
export async function floorRun(K, P) {
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: USER_PROMPT },
  ];
  for (;;) {
    const reply = await floorTurn(messages, K, P);
    messages.push(reply);
    if (reply.calls.length === 0) return reply.content;
    for (const r of await Promise.all(reply.calls.map(runFloorTool))) messages.push(r);
  }
}

/** One streamed run of the hand loop; every model part and tool result is an event the caller consumes. */
export async function floorStreamRun(K, P) {
  let text = '';
  let events = 0;
  const loop = async function* () {
    const messages = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: USER_PROMPT },
    ];
    for (;;) {
      let reply = '';
      const calls = [];
      for await (const part of floorStream(messages, K, P)) {
        if (part.type === 'text-delta') reply += part.delta;
        else if (part.type === 'tool-call') calls.push(part.call);
        yield part;
      }
      messages.push({ role: 'assistant', content: reply, calls });
      if (calls.length === 0) {
        text = reply;
        return;
      }
      for (const r of await Promise.all(calls.map(runFloorTool))) {
        messages.push(r);
        yield { type: 'tool-result', id: r.id, content: r.content };
      }
    }
  };
  for await (const _ of loop()) events++;
  if (!events) throw new Error('the floor stream yielded nothing');
  return text;
}
