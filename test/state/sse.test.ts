import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator } from '../../src/agents/orchestrator/index.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { emptyUsage } from '../../src/core/usage.js';
import { createProgressStore, EVENT_TYPES, formatSSE, sseResponse, toSSE } from '../../src/state/index.js';
import { FakeClock, flush, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

const decoder = new TextDecoder();

function bus(highWaterMark?: number) {
  const clock = new FakeClock(0);
  return { clock, bus: new EventBus({ runId: 'r1', clock, highWaterMark }) };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function parse(text: string): EventSourceMessage[] {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  parser.feed(text);
  return messages;
}

async function* from(events: TandemEvent[], onFinally?: () => void): AsyncGenerator<TandemEvent> {
  try {
    yield* events;
  } finally {
    onFinally?.();
  }
}

const event = (seq: number, extra: object = {}): TandemEvent =>
  ({ type: 'token', runId: 'r1', seq, at: 0, delta: `d${seq}`, ...extra }) as TandemEvent;
const complete = (seq: number): TandemEvent => ({
  type: 'complete',
  runId: 'r1',
  seq,
  at: 0,
  output: 'done',
  status: 'success',
  usage: emptyUsage(),
});

describe('toSSE', () => {
  it('frames each event as id, event and one data line, byte for byte', async () => {
    const { bus: b } = bus();
    const reader = toSSE(b, { heartbeatMs: 0 }).getReader();
    b.emit('run_started', { input: 'hi' });
    b.emit('todo_update', { content: '# Plan\n- [ ] one\r\n', checked: 0, total: 1 });
    const chunk = await reader.read();
    expect(decoder.decode(chunk.value)).toBe(
      'id: 1\nevent: run_started\ndata: {"type":"run_started","runId":"r1","seq":1,"at":0,"input":"hi"}\n\n' +
        'id: 2\nevent: todo_update\ndata: {"type":"todo_update","runId":"r1","seq":2,"at":0,"content":"# Plan\\n- [ ] one\\r\\n","checked":0,"total":1}\n\n',
    );
    await reader.cancel();
  });

  it('sends the events a run already queued in one chunk, and later ones as they come', async () => {
    const { bus: b } = bus();
    const reader = toSSE(b, { heartbeatMs: 0 }).getReader();
    for (let i = 0; i < 3; i++) b.emit('token', { delta: `t${i}` });
    expect(parse(decoder.decode((await reader.read()).value)).map((m) => m.id)).toEqual(['1', '2', '3']);
    const next = reader.read();
    b.emit('token', { delta: 'late' });
    expect(parse(decoder.decode((await next).value)).map((m) => m.id)).toEqual(['4']);
    await reader.cancel();
  });

  it('puts at most 64 events in one chunk', async () => {
    const { bus: b } = bus();
    const reader = toSSE(b, { heartbeatMs: 0 }).getReader();
    for (let i = 0; i < 100; i++) b.emit('token', { delta: 'x' });
    expect(parse(decoder.decode((await reader.read()).value))).toHaveLength(64);
    expect(parse(decoder.decode((await reader.read()).value))).toHaveLength(36);
    await reader.cancel();
  });

  it('never splits data across lines, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.jsonValue(), (delta, args) => {
        const frame = formatSSE({
          type: 'tool_call',
          runId: 'r',
          seq: 1,
          at: 0,
          id: delta,
          name: delta,
          args,
        });
        const lines = frame.split(/\r\n|\r|\n/);
        expect(lines).toHaveLength(5);
        expect(lines.slice(3)).toEqual(['', '']);
        const [message] = parse(frame);
        expect(JSON.parse(message!.data)).toEqual(
          JSON.parse(
            JSON.stringify({ type: 'tool_call', runId: 'r', seq: 1, at: 0, id: delta, name: delta, args }),
          ),
        );
      }),
    );
  });

  it('still frames an event whose arguments hold a BigInt or a cycle', () => {
    const args: Record<string, unknown> = { n: 10n };
    args.self = args;
    const frame = formatSSE({ type: 'tool_call', runId: 'r', seq: 4, at: 0, id: 'c', name: 'x', args });
    expect(JSON.parse(parse(frame)[0]!.data).args).toEqual({ n: '10', self: '[Circular]' });
  });

  it('sends a ": ping" comment every heartbeatMs on the given clock', async () => {
    const { bus: b, clock } = bus();
    const reader = toSSE(b, { clock, heartbeatMs: 1_000 }).getReader();
    await clock.advance(999);
    expect(clock.pending).toBe(1);
    await clock.advance(1);
    expect(decoder.decode((await reader.read()).value)).toBe(': ping\n\n');
    b.emit('run_started', { input: 'x' });
    expect(decoder.decode((await reader.read()).value)).toContain('event: run_started');
    await clock.advance(1_000);
    expect(decoder.decode((await reader.read()).value)).toBe(': ping\n\n');
    b.emit('complete', { output: '', status: 'success', usage: emptyUsage() });
    await reader.read();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(clock.pending).toBe(0);
  });

  it('defaults the heartbeat to 15 s', async () => {
    const { bus: b, clock } = bus();
    const stream = toSSE(b, { clock });
    expect(clock.nextTimerIn()).toBe(15_000);
    await stream.cancel();
    expect(clock.pending).toBe(0);
  });

  it('closes after the terminal event and releases the source', async () => {
    let released = false;
    const stream = toSSE(
      from([event(1), complete(2), event(3)], () => (released = true)),
      { heartbeatMs: 0 },
    );
    const messages = parse(await readAll(stream));
    expect(messages.map((m) => m.event)).toEqual(['token', 'complete']);
    expect(messages.map((m) => m.id)).toEqual(['1', '2']);
    expect(released).toBe(true);
  });

  it('closes when the events end without a terminal one', async () => {
    const text = await readAll(toSSE(from([event(1)]), { heartbeatMs: 0 }));
    expect(parse(text)).toHaveLength(1);
  });

  it('cancelling the stream (the client left) releases the bus queue and any paused producer', async () => {
    const { bus: b } = bus(4);
    const reader = toSSE(b, { heartbeatMs: 0 }).getReader();
    // More than two chunks of 64: the client took one, the stream holds one, the rest lags in the bus.
    for (let i = 0; i < 140; i++) b.emit('token', { delta: `t${i}` });
    await reader.read();
    const paused = b.backpressure();
    expect(paused).toBeInstanceOf(Promise);
    let resumed = false;
    void paused!.then(() => (resumed = true));
    await reader.cancel();
    await flush();
    expect(b.backpressure()).toBeUndefined();
    expect(resumed).toBe(true);
    expect((b as any).queues.size).toBe(0);
  });

  it('closes and releases the events when the signal aborts', async () => {
    const { bus: b, clock } = bus();
    const controller = new AbortController();
    const reader = toSSE(b, { clock, signal: controller.signal }).getReader();
    b.emit('run_started', { input: 'x' });
    await reader.read();
    controller.abort();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect((b as any).queues.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('yields an empty stream for an already aborted signal', async () => {
    const { bus: b } = bus();
    expect(await readAll(toSSE(b, { signal: AbortSignal.abort() }))).toBe('');
    expect((b as any).queues.size).toBe(0);
  });

  it('errors the stream when the events throw', async () => {
    async function* failing(): AsyncGenerator<TandemEvent> {
      yield event(1);
      throw new Error('source broke');
    }
    const { clock } = bus();
    await expect(readAll(toSSE(failing(), { clock }))).rejects.toThrow('source broke');
    expect(clock.pending).toBe(0);
  });
});

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

function demoRun() {
  const orchestrator = new Orchestrator({
    models: {
      planner: new ScriptedModel([
        { text: '{"needsPlan": true, "reasoning": "two steps"}' },
        {
          text: JSON.stringify({
            title: 'Sum',
            summary: 'add then report',
            steps: [
              { id: 'a', description: 'add', tools: ['add'], dependsOn: [] },
              { id: 'b', description: 'report', tools: [], dependsOn: ['a'] },
            ],
          }),
        },
      ]),
      executor: new ScriptedModel([
        { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
        { text: 'three\nlines\r\nhere' },
        { text: 'reported', reasoning: 'think "quoted"' },
      ]),
      verifier: new ScriptedModel([{ text: 'PASS' }]),
      finalizer: new ScriptedModel([{ text: 'The sum is 3.' }]),
    },
    tools: [add],
    planning: { classify: 'llm' },
    runtime: testRuntime(),
  });
  return orchestrator.run('add 1 and 2, then report');
}

describe('sseResponse', () => {
  it('sets the SSE headers, keeps extra ones, and round-trips every event through eventsource-parser', async () => {
    const run = demoRun();
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const response = sseResponse(run, { heartbeatMs: 0, headers: { 'access-control-allow-origin': '*' } });
    expect(response.status).toBe(200);
    expect(headersOf(response.headers)).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'access-control-allow-origin': '*',
    });
    const messages = parse(await response.text());
    expect(events.at(-1)!.type).toBe('complete');
    expect(messages.map((m) => JSON.parse(m.data))).toEqual(events);
    expect(messages.map((m) => [m.id, m.event])).toEqual(events.map((e) => [String(e.seq), e.type]));

    const store = createProgressStore();
    for (const m of messages) store.apply(JSON.parse(m.data));
    const direct = createProgressStore();
    for (const e of events) direct.apply(e);
    expect(store.getState()).toEqual(direct.getState());
    expect(store.getState()).toMatchObject({ status: 'completed', output: 'The sum is 3.' });
  });

  it('streams to a real HTTP client through node:http', async () => {
    const server = createServer((_req, res) => {
      const response = sseResponse(demoRun(), { heartbeatMs: 0 });
      res.writeHead(response.status, headersOf(response.headers));
      Readable.fromWeb(response.body as any).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const messages = parse(await response.text());
      expect(messages.at(-1)!.event).toBe('complete');
      expect(messages.map((m) => Number(m.id))).toEqual(messages.map((_, i) => i + 1));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('EVENT_TYPES', () => {
  it('lists every event type once, so an EventSource can listen to them all', () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(EVENT_TYPES).toHaveLength(40);
    expect(EVENT_TYPES).toContain('plan_step_failed');
    expect(EVENT_TYPES).toContain('browser_stream');
  });
});
