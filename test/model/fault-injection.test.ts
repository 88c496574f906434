/**
 * The resilient invoker over the real OpenAI adapter against a loopback
 * server that injects faults. Time is a fake clock: the driver lets real I/O
 * run (event-loop turns, never sleeps) and fires a backoff timer whenever the
 * invoker waits, and the stale-stream timer only when the server stalled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Message, userMessage } from '../../src/core/messages.js';
import type { CompressHook } from '../../src/model/invoke.js';
import { StreamInterruptedError } from '../../src/model/resilience/errors.js';
import { createResilientInvoker } from '../../src/model/resilience/resilient-invoker.js';
import type { ProviderFactory } from '../../src/model/resilience/tiers.js';
import type { ModelResponse } from '../../src/model/types.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { eventsOf, FakeClock, recordEvents, sequenceRandom } from './support.js';

const STALE_MS = 180_000;

type Fault =
  | { status: number; headers?: Record<string, string>; body: unknown }
  | { frames: string[]; end?: 'done' | 'reset' | 'stall' }
  | { raw: string; contentType: string }
  | { reset: true };

interface Received {
  model: string;
  stream: boolean;
  messages: Array<{ role: string; content: unknown }>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const role = chunk({ role: 'assistant', content: '' });
const say = (text: string) => chunk({ content: text });
const stop = chunk({}, 'stop');
const ok: Fault = { frames: [role, say('o'), say('k'), stop], end: 'done' };

/** A loopback Chat Completions server playing a script of faults, one per request. */
class FaultServer {
  readonly received: Received[] = [];
  script: Fault[] = [];
  /** Stalled responses whose stale timeout the driver has not fired yet. */
  unservedStalls = 0;
  private server: Server | undefined;
  baseURL = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const piece of req) text += piece;
    const body = JSON.parse(text) as Received;
    this.received.push({ model: body.model, stream: body.stream === true, messages: body.messages });
    const fault = this.script.shift() ?? { status: 500, body: { error: { message: 'script exhausted' } } };
    if ('reset' in fault) {
      req.socket.destroy();
    } else if ('status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      res.end(JSON.stringify(fault.body));
    } else if ('raw' in fault) {
      res.writeHead(200, { 'content-type': fault.contentType });
      res.end(fault.raw);
    } else {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = fault.frames.map((frame) => `data: ${frame}\n\n`).join('');
      if (fault.end === 'reset') res.write(frames, () => req.socket.destroy());
      else if (fault.end === 'stall') res.write(frames, () => this.unservedStalls++);
      else res.end(`${frames}data: [DONE]\n\n`);
    }
  }
}

const server = new FaultServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.received.length = 0;
  server.script = [];
  server.unservedStalls = 0;
});

/** Awaits `promise`, letting I/O run, firing backoff timers, and the stale timer only for a stall. */
async function drive<T>(promise: Promise<T>, clock: FakeClock): Promise<T> {
  let done = false;
  const settled = promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let turn = 0; turn < 500_000 && !done; turn++) {
    await tick();
    if (server.unservedStalls > 0 && clock.fireNext((ms) => ms === STALE_MS)) server.unservedStalls--;
    else clock.fireNext((ms) => ms !== STALE_MS);
  }
  await settled;
  return promise;
}

function setup(options: { models?: string[]; local?: boolean } = {}) {
  const clock = new FakeClock();
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
  const models = (options.models ?? ['primary']).map((name) =>
    provider(name, { info: { local: options.local ?? true } }),
  );
  const { bus, events } = recordEvents(clock);
  const invoker = createResilientInvoker({ models, runtime: { clock, random: sequenceRandom(0) } });
  const tokens = () => eventsOf(events, 'token').map((e) => e.delta);
  const run = (opts: { stream?: boolean; compress?: CompressHook; messages?: Message[] } = {}) =>
    drive(invoker.invoke({ messages: opts.messages ?? [userMessage('hi')] }, { emit: bus, ...opts }), clock);
  return { clock, events, tokens, run };
}

const textOf = (response: ModelResponse) =>
  response.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('fault injection over the OpenAI adapter', () => {
  it('retries a 429 after its Retry-After', async () => {
    server.script = [
      { status: 429, headers: { 'retry-after': '3' }, body: { error: { message: 'slow down' } } },
      ok,
    ];
    const { clock, events, tokens, run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect(eventsOf(events, 'retry').map((e) => [e.error.kind, e.delayMs])).toEqual([['rate_limit', 3_000]]);
    expect([server.received.length, clock.now(), tokens().join('')]).toEqual([2, 3_000, 'ok']);
  });

  it('backs off 2 s on a 429 without Retry-After', async () => {
    server.script = [{ status: 429, body: { error: { message: 'Rate limit reached' } } }, ok];
    const { events, run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect(eventsOf(events, 'retry').map((e) => e.delayMs)).toEqual([2_000]);
    expect(server.received).toHaveLength(2);
  });

  for (const [status, kind] of [
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [529, 'overloaded'],
  ] as const) {
    it(`recovers from a ${status}`, async () => {
      server.script = [{ status, body: { error: { message: 'upstream trouble' } } }, ok];
      const { events, tokens, run } = setup();
      expect(textOf(await run())).toBe('ok');
      expect(eventsOf(events, 'retry').map((e) => e.error.kind)).toEqual([kind]);
      expect([server.received.length, tokens().join('')]).toEqual([2, 'ok']);
    });
  }

  it('retries a connection reset before the first byte', async () => {
    server.script = [{ reset: true }, ok];
    const { events, run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect(eventsOf(events, 'retry').map((e) => e.error.kind)).toEqual(['connection']);
    expect(server.received).toHaveLength(2);
  });

  it('retries a reset after bytes that showed nothing', async () => {
    server.script = [{ frames: [role], end: 'reset' }, ok];
    const { tokens, run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect([server.received.length, tokens().join('')]).toEqual([2, 'ok']);
  });

  it('does not retry a reset after visible text, and shows the text once', async () => {
    server.script = [{ frames: [role, say('Hel')], end: 'reset' }, ok];
    const { tokens, run } = setup();
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error).toMatchObject({ kind: 'connection', retryable: false });
    expect(textOf((error as StreamInterruptedError).partial)).toBe('Hel');
    expect([server.received.length, tokens()]).toEqual([1, ['Hel']]);
  });

  it('aborts a stalled stream after 180 s and retries it', async () => {
    server.script = [{ frames: [role], end: 'stall' }, ok];
    const { clock, events, tokens, run } = setup({ local: false });
    expect(textOf(await run())).toBe('ok');
    expect(eventsOf(events, 'retry').map((e) => e.error.kind)).toEqual(['timeout']);
    expect([server.received.length, clock.now(), tokens().join('')]).toEqual([2, STALE_MS + 2_000, 'ok']);
  });

  it('ignores SSE lines that are not data', async () => {
    const raw = `: keep-alive\n\nevent: ping\n\nnonsense line\n\n${[role, say('ok'), stop].map((f) => `data: ${f}\n\n`).join('')}data: [DONE]\n\n`;
    server.script = [{ raw, contentType: 'text/event-stream' }];
    const { run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect(server.received).toHaveLength(1);
  });

  it('retries a stream whose data line is malformed JSON', async () => {
    server.script = [{ frames: ['{"choices":[{"delta":{"content":"o'], end: 'done' }, ok];
    const { events, tokens, run } = setup();
    expect(textOf(await run())).toBe('ok');
    expect(eventsOf(events, 'retry').map((e) => e.error.kind)).toEqual(['invalid_response']);
    expect([server.received.length, tokens().join('')]).toEqual([2, 'ok']);
  });

  it('retries a whole reply cut off mid-JSON', async () => {
    server.script = [
      { raw: '{"id":"c1","choices":[{"index":0,"message":{"role":"assis', contentType: 'application/json' },
      {
        raw: JSON.stringify({
          id: 'c2',
          choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
        }),
        contentType: 'application/json',
      },
    ];
    const { events, run } = setup();
    expect(textOf(await run({ stream: false }))).toBe('whole');
    expect(eventsOf(events, 'retry').map((e) => e.error.kind)).toEqual(['invalid_response']);
    expect(server.received.map((r) => r.stream)).toEqual([false, false]);
  });

  for (const [label, message, limit] of [
    [
      'naming the limit',
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
      8_192,
    ],
    ['without a number', 'Your input exceeds the context window of this model.', 64_000],
  ] as const) {
    it(`compresses and retries a 400 context-length error ${label}`, async () => {
      server.script = [{ status: 400, body: { error: { message, code: 'context_length_exceeded' } } }, ok];
      const { events, run } = setup();
      const hooks: Array<Parameters<CompressHook>[1]> = [];
      const compress: CompressHook = async (request, info) => {
        hooks.push(info);
        return { ...request, messages: [userMessage('short')] };
      };
      expect(textOf(await run({ compress, messages: [userMessage('long '.repeat(50))] }))).toBe('ok');
      expect(hooks).toEqual([{ reason: 'context_length', contextLimit: limit }]);
      expect(server.received.map((r) => r.messages.at(-1)?.content)).toEqual(['long '.repeat(50), 'short']);
      expect(eventsOf(events, 'retry')).toHaveLength(0);
    });
  }

  it('falls back to the next model on a 401', async () => {
    server.script = [{ status: 401, body: { error: { message: 'Incorrect API key provided' } } }, ok];
    const { events, tokens, run } = setup({ models: ['primary', 'backup'] });
    expect(textOf(await run())).toBe('ok');
    expect(server.received.map((r) => r.model)).toEqual(['primary', 'backup']);
    expect(eventsOf(events, 'fallback').map((e) => [e.from, e.to, e.error.kind])).toEqual([
      ['openai:primary', 'openai:backup', 'auth'],
    ]);
    expect(tokens().join('')).toBe('ok');
  });

  it('accepts createOpenAI in a providers factory map', () => {
    const factories: Record<string, ProviderFactory> = { openai: createOpenAI };
    const model = factories.openai?.({ name: 'qwen', baseURL: server.baseURL, apiKey: 'k' })('m');
    expect(model?.id).toBe('qwen:m');
  });
});
