// SSE encoding per event: `toSSE` over the recorded events of streamed runs,
// queued on a run's bus and read to the end, beside a hand-written
// ReadableStream that frames each event the same way (`id`, `event`,
// `data: <JSON>`), one chunk per event.
//   node bench/sse.mjs --events 20000 --runs 30
import { defineTool, EventBus, Executor, toSSE } from '../dist/index.js';
import { addImpl, addSchema, options, report, stats, zeroUsage } from './lib.mjs';

const opts = options({ events: 20_000, warmup: 5, runs: 30, minWarmupMs: 1000 });

const add = defineTool({ name: 'add', description: 'Add.', parameters: addSchema, execute: addImpl });
let turn = 0;
const model = {
  id: 'bench:sse',
  async *stream() {
    if (turn++ % 3 < 2)
      yield { type: 'tool-call', id: `call_${turn}`, name: 'add', arguments: '{"a":1,"b":2}' };
    else for (const delta of ['The ', 'sum ', 'is ', '3.']) yield { type: 'text-delta', delta };
    yield { type: 'finish', finishReason: turn % 3 ? 'tool_calls' : 'stop', usage: zeroUsage };
  },
  generate: async () => {
    throw new Error('streams only');
  },
};

// A realistic mix: what streamed runs emit (tokens, tool calls and results, usage, stages), one
// terminal event at the end (toSSE closes the stream after it).
const events = [];
let complete;
while (events.length < opts.events - 1) {
  const run = new Executor({ model, tools: [add] }).run('Add 1 and 2.');
  for await (const event of run) {
    if (event.type !== 'complete') events.push(event);
    else complete = event;
  }
}
events.length = opts.events - 1;
events.push(complete);

// A run's iterator with every event already queued: a consumer lagging behind its run. The bus
// restamps seq, at and runId, so each source is built (untimed) from the recorded payloads.
const payloads = events.map(({ type, runId: _r, seq: _s, at: _a, ...payload }) => [type, payload]);
const clock = { now: () => 0, setTimer: () => () => {} };
function source() {
  const bus = new EventBus({ runId: 'run_bench', clock, highWaterMark: events.length * 2 });
  const iterator = bus[Symbol.asyncIterator]();
  for (const [type, payload] of payloads) bus.emit(type, payload);
  return { [Symbol.asyncIterator]: () => iterator };
}

async function drain(stream) {
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

const encoder = new TextEncoder();
function handWritten(iterable) {
  const iterator = iterable[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) return controller.close();
      controller.enqueue(
        encoder.encode(`id: ${value.seq}\nevent: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`),
      );
    },
  });
}

let expected;
const check = (bytes) => {
  expected ??= bytes;
  if (bytes !== expected) throw new Error(`verification failed: ${bytes} bytes, expected ${expected}`);
};
/** µs per event of draining `stream(source)`; the source is filled outside the timed region. */
async function perEvent(stream) {
  const samples = [];
  const started = performance.now();
  for (let i = 0; i < opts.warmup || performance.now() - started < opts.minWarmupMs; i++)
    check(await drain(stream(source())));
  for (let i = 0; i < opts.runs; i++) {
    const filled = source();
    const s = process.hrtime.bigint();
    check(await drain(stream(filled)));
    samples.push(Number(process.hrtime.bigint() - s) / 1e3 / events.length);
  }
  return stats(samples);
}
const floor = await perEvent(handWritten);
const sse = await perEvent((events) => toSSE(events, { heartbeatMs: 0 }));
report(
  [
    {
      path: 'SSE encoding (`toSSE`)',
      floor: `${floor.median} µs/event`,
      value: `${sse.median} µs/event`,
      target: '≤ 1.2 µs/event',
    },
  ],
  opts.json,
  `toSSE over ${events.length} recorded events, ${opts.runs} timed runs, medians (node ${process.version})`,
);
