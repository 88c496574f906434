// Executor overhead with a zero-latency model on the peer benchmark's workload
// (bench/lib.mjs), beside the hand-written loop: sequential, 4 parallel calls,
// streaming, exact token accounting, the tool guardrails, a 10 000-message
// prior history, and the memory of a run waiting on its model.
//   npm run bench                       (every bench; builds first; runs on dist/)
//   node --expose-gc bench/executor.mjs --runs 300 --K 10
// Every run is verified outside the timed region: text, model calls, tool calls.
import { contextPerConversation, defineTool, Executor, Guardrails, TokenCounter } from '../dist/index.js';
import {
  addTool,
  decide,
  floorRun,
  floorStreamRun,
  options,
  r1,
  report,
  SYSTEM_PROMPT,
  timeRuns,
  USER_PROMPT,
  verified,
  zeroUsage,
} from './lib.mjs';

const opts = options({ K: 10, warmup: 50, runs: 300, minWarmupMs: 1000, waiting: 2000, history: 10_000 });

const add = addTool(defineTool);

// Tool results since the run's input: the model's cost stays flat however long the prior history.
function scan(messages) {
  let n = 0;
  let sum = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'user'; i--) {
    if (messages[i].role !== 'tool') continue;
    for (const part of messages[i].content) {
      n++;
      sum += Number(part.content);
    }
  }
  return [n, sum];
}

function fakeModel(K, P, stream) {
  const model = {
    id: 'bench:zero-latency',
    async generate(request) {
      const d = decide(...scan(request.messages), K, P);
      const content = d.calls
        ? d.calls.map((c) => ({ type: 'tool_call', ...c }))
        : [{ type: 'text', text: d.text }];
      return {
        message: { role: 'assistant', content },
        finishReason: d.calls ? 'tool_calls' : 'stop',
        usage: zeroUsage,
      };
    },
  };
  if (stream) {
    model.stream = async function* (request) {
      const d = decide(...scan(request.messages), K, P);
      if (d.calls) for (const c of d.calls) yield { type: 'tool-call', ...c };
      else for (const delta of d.text) yield { type: 'text-delta', delta };
      yield { type: 'finish', finishReason: d.calls ? 'tool_calls' : 'stop', usage: zeroUsage };
    };
  }
  return model;
}

/** A verified run of an executor with `extra` options; `history` is passed to every run. */
function executorRun({ K = opts.K, P = 1, stream = false, history, ...extra } = {}) {
  const executor = new Executor({
    model: fakeModel(K, P, stream),
    tools: [add],
    instructions: SYSTEM_PROMPT,
    stream,
    ...extra,
    limits: {
      // Far from the budget warnings, which would ride on the tool results the model sums.
      maxIterations: 2 * K + 5,
    },
  });
  const runOptions = history ? { history } : undefined;
  return verified(K, P, async () => {
    const run = executor.run(USER_PROMPT, runOptions);
    let events = 0;
    if (stream) for await (const _ of run) events++;
    if (stream && !events) throw new Error('no events');
    return (await run.result).output;
  });
}

function floor(K, P, stream) {
  return verified(K, P, () => (stream ? floorStreamRun(K, P) : floorRun(K, P)));
}

const perTurn = (fn, K = opts.K) => timeRuns(fn, { ...opts, per: K });

/** 10 000 short user/assistant turns before the run's input. */
function priorHistory(length) {
  return Array.from({ length }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: `Question ${i}: what is ${i} + 1?` }
      : { role: 'assistant', content: [{ type: 'text', text: `It is ${i + 1}.` }] },
  );
}

/**
 * What a prior history adds to a run: the extra time of a run on it over the
 * same run without, at K and at 2K turns. The extra at K is the setup (the
 * history copied and its tokens accounted); its growth from K to 2K, per
 * turn, is what each turn pays for the history (0 when flat).
 */
async function withHistory(history) {
  const extra = async (K) => {
    const runs = { ...opts, runs: opts.runs * 2 };
    const none = contextPerConversation({ contextWindow: 10_000_000 });
    const prior = contextPerConversation({ contextWindow: 10_000_000 });
    const without = executorRun({ K, context: { manager: none } });
    const withPrior = executorRun({ K, history, context: { manager: prior } });
    // Alternated, so drift on a shared machine hits both alike.
    const a = [];
    const b = [];
    for (let round = 0; round < 4; round++) {
      a.push((await timeRuns(without, runs)).median);
      b.push((await timeRuns(withPrior, runs)).median);
    }
    const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
    return { extra: median(b) - median(a), turn: median(a) / K };
  };
  const k = await extra(opts.K);
  const k2 = await extra(2 * opts.K);
  return { setup: r1(k.extra), growth: r1((k2.extra - k.extra) / opts.K), plainTurn: r1(k.turn) };
}

/**
 * Heap per run while `count` runs wait on their model (after GC), beside the
 * same number of hand-loop runs waiting on a promise.
 */
async function waitingHeap(count) {
  const measure = async (start) => {
    const releases = [];
    const waiting = new Promise((resolve) => {
      start((release) => {
        releases.push(release);
        if (releases.length === count) resolve();
      });
    });
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    const done = [];
    for (let i = 0; i < count; i++) done.push(start.one());
    await waiting;
    globalThis.gc();
    const after = process.memoryUsage().heapUsed;
    for (const release of releases) release();
    await Promise.all(done);
    return (after - before) / count / 1024;
  };
  const tandem = () => {
    let onWait;
    const model = {
      id: 'bench:waiting',
      generate: () =>
        new Promise((resolve) =>
          onWait(() =>
            resolve({
              message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
              finishReason: 'stop',
              usage: zeroUsage,
            }),
          ),
        ),
    };
    const executor = new Executor({ model, tools: [add], instructions: SYSTEM_PROMPT });
    const start = (register) => {
      onWait = register;
    };
    start.one = () => executor.run(USER_PROMPT).result;
    return start;
  };
  const hand = () => {
    let onWait;
    const start = (register) => {
      onWait = register;
    };
    start.one = async () => {
      const messages = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: USER_PROMPT },
      ];
      const reply = await new Promise((resolve) =>
        onWait(() => resolve({ role: 'assistant', content: 'ok' })),
      );
      messages.push(reply);
      return reply.content;
    };
    return start;
  };
  // One round to warm up, then the measured one.
  await measure(tandem());
  await measure(hand());
  return { tandem: r1(await measure(tandem())), floor: r1(await measure(hand())) };
}

const floorSeq = await perTurn(floor(opts.K, 1, false));
const floorPar = await perTurn(floor(opts.K, 4, false));
const floorStr = await perTurn(floor(opts.K, 1, true));
const seq = await perTurn(executorRun());
const par = await perTurn(executorRun({ P: 4 }));
const str = await perTurn(executorRun({ stream: true }));
// Loaded before timing: the row is the exact count, not the estimate used while rank data loads.
const counter = new TokenCounter({ model: 'gpt-4o' });
await counter.ready();
const exact = contextPerConversation({ model: 'gpt-4o', counter });
const tokens = await perTurn(executorRun({ P: 4, context: { manager: exact } }));
const gate = await perTurn(executorRun({ P: 4, safety: { gate: new Guardrails().toolGate() } }));
const history = await withHistory(priorHistory(opts.history));
const heap = typeof globalThis.gc === 'function' ? await waitingHeap(opts.waiting) : undefined;

const x = (v, base) => `${r1(v / base)}×`;
report(
  [
    {
      path: 'Executor turn, sequential',
      floor: `${floorSeq.median} µs`,
      value: `${seq.median} µs (${x(seq.median, floorSeq.median)})`,
      target: '≤ 3× floor',
    },
    {
      path: '4 parallel calls per turn',
      floor: `${floorPar.median} µs`,
      value: `${par.median} µs (${x(par.median, floorPar.median)})`,
      target: '≤ 3× floor',
    },
    {
      path: 'streaming turn',
      floor: `${floorStr.median} µs`,
      value: `${str.median} µs (${x(str.median, floorStr.median)})`,
      target: '≤ 3× floor',
    },
    {
      path: "exact token accounting (`model: 'gpt-4o'`), P=4",
      floor: `plain ${par.median} µs`,
      value: `${tokens.median} µs/turn (${x(tokens.median, par.median)})`,
      target: '≤ 1.5× plain',
    },
    {
      path: '`Guardrails().toolGate()`, P=4',
      floor: `plain ${par.median} µs`,
      value: `${gate.median} µs/turn (+${r1(gate.median - par.median)})`,
      target: '≤ plain + 3 µs',
    },
    {
      path: `context manager with a ${opts.history}-message prior history`,
      floor: `${history.plainTurn} µs/turn without`,
      value: `${history.setup} µs setup per run, ${history.growth >= 0 ? '+' : ''}${history.growth} µs/turn`,
      target: '≤ 50 µs setup, flat per turn',
    },
    {
      path: 'memory per run waiting on its model',
      floor: heap ? `${heap.floor} KB` : 'n/a',
      value: heap ? `${heap.tandem} KB` : 'n/a (run with --expose-gc)',
      target: '≤ 4 KB',
    },
  ],
  opts.json,
  `tandem Executor, zero-latency model, K=${opts.K} turns, ${opts.runs} timed runs, medians (node ${process.version})`,
);
