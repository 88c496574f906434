import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import type { Emitter } from '../../src/core/events.js';
import { userMessage } from '../../src/core/messages.js';
import { StreamInterruptedError } from '../../src/model/resilience/errors.js';
import {
  createResilientInvoker,
  type ResilientInvokerOptions,
} from '../../src/model/resilience/resilient-invoker.js';
import type { ModelInfo, ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import {
  eventsOf,
  FakeClock,
  fail,
  recordEvents,
  ScriptedModel,
  type Step,
  sequenceRandom,
  settle,
} from './support.js';

const request: ModelRequest = { messages: [userMessage('hi')] };
const text = (delta: string): ModelStreamPart => ({ type: 'text-delta', delta });

function chain(scripts: Step[][], options: Partial<ResilientInvokerOptions> & { info?: ModelInfo } = {}) {
  const clock = new FakeClock();
  const models = scripts.map(
    (script, i) => new ScriptedModel(`p:m${i}`, script, clock, { info: options.info }),
  );
  const { bus, events, types } = recordEvents(clock);
  const invoker = createResilientInvoker({
    ...options,
    models,
    runtime: { clock, random: sequenceRandom(0) },
  });
  return { clock, models, bus, events, types, invoker };
}

describe('stream failures', () => {
  it('retries a stream that failed before delivering anything', async () => {
    const { clock, models, bus, types, events, invoker } = chain([
      [{ parts: [text('')], error: fail('connection') }, { reply: 'Hello' }],
    ]);
    const parts: ModelStreamPart[] = [];
    const response = await clock.run(invoker.invoke(request, { emit: bus, onPart: (p) => parts.push(p) }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(models[0]?.count('stream')).toBe(2);
    expect(types()).toEqual(['retry', 'token']);
    expect(eventsOf(events, 'token').map((e) => e.delta)).toEqual(['Hello']);
    expect(parts.filter((p) => p.type === 'text-delta' && p.delta !== '')).toHaveLength(1);
  });

  it('does not retry nor fall back after text was delivered, and never duplicates it', async () => {
    const { clock, models, bus, events, invoker } = chain([
      [{ parts: [text('Hel')], error: fail('connection') }, { reply: 'never' }],
      [{ reply: 'never' }],
    ]);
    const error = await clock.run(invoker.invoke(request, { emit: bus })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error).toMatchObject({ kind: 'connection', retryable: false });
    expect((error as StreamInterruptedError).partial.message.content).toEqual([
      { type: 'text', text: 'Hel' },
    ]);
    expect((error as StreamInterruptedError).cause).toBeInstanceOf(ModelError);
    expect(models.map((m) => m.calls.length)).toEqual([1, 0]);
    expect(eventsOf(events, 'token').map((e) => e.delta)).toEqual(['Hel']);
    expect(eventsOf(events, 'retry')).toHaveLength(0);
  });

  it('treats delivered reasoning or a tool call as visible output', async () => {
    for (const part of [
      { type: 'reasoning-delta', delta: 'thinking' },
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'search', argsDelta: '{"q"' },
    ] as ModelStreamPart[]) {
      const { clock, models, invoker } = chain([[{ parts: [part], error: fail('server') }]]);
      await expect(clock.run(invoker.invoke(request))).rejects.toBeInstanceOf(StreamInterruptedError);
      expect(models[0]?.calls).toHaveLength(1);
    }
  });

  it('reports an empty reply after shown reasoning as interrupted, not as a silent fallback', async () => {
    const { clock, models, invoker } = chain([[{ parts: [{ type: 'reasoning-delta', delta: 'hmm' }] }], []]);
    const error = await clock.run(invoker.invoke(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error).toMatchObject({ kind: 'empty_response' });
    expect(models.map((m) => m.calls.length)).toEqual([1, 0]);
  });

  it('makes one generate call after 2 stream failures and replays its text as tokens', async () => {
    const { clock, models, bus, events, types, invoker } = chain([
      [{ error: fail('connection') }, { error: fail('timeout') }, { reply: 'whole' }],
    ]);
    const parts: ModelStreamPart[] = [];
    const response = await clock.run(invoker.invoke(request, { emit: bus, onPart: (p) => parts.push(p) }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'whole' }]);
    expect(models[0]?.calls.map((c) => c.method)).toEqual(['stream', 'stream', 'generate']);
    expect(types()).toEqual(['retry', 'retry', 'token']);
    expect(eventsOf(events, 'token')[0]?.delta).toBe('whole');
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
  });

  it('streams again on the next invoke after a session of stream failures', async () => {
    const { clock, models, invoker } = chain([
      [{ error: fail('connection') }, { error: fail('connection') }, { reply: 'a' }, { reply: 'b' }],
    ]);
    await clock.run(invoker.invoke(request));
    await clock.run(invoker.invoke(request));
    expect(models[0]?.calls.map((c) => c.method)).toEqual(['stream', 'stream', 'generate', 'stream']);
  });

  it('calls generate only when the caller turns streaming off, emitting nothing', async () => {
    const { clock, models, bus, events, invoker } = chain([[{ reply: 'quiet' }]]);
    await clock.run(invoker.invoke(request, { emit: bus, stream: false }));
    expect(models[0]?.calls.map((c) => c.method)).toEqual(['generate']);
    expect(events).toHaveLength(0);
  });

  it('waits for emitter backpressure before pulling the next part', async () => {
    const { clock, models, invoker } = chain([[{ parts: [text('a'), text('b')] }]]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    const emit: Emitter = {
      runId: 'r',
      emit: (type, payload) => {
        if (type === 'token') seen.push((payload as { delta: string }).delta);
      },
      scope: () => emit,
      backpressure: () => (seen.length === 1 ? gate : undefined),
    };
    const done = invoker.invoke(request, { emit });
    await clock.advance(600_000);
    expect(seen).toEqual(['a']);
    release();
    const response = await clock.run(done);
    expect(seen).toEqual(['a', 'b']);
    expect(response.message.content).toEqual([{ type: 'text', text: 'ab' }]);
    expect(models[0]?.calls).toHaveLength(1);
  });
});

describe('stale streams', () => {
  it('aborts a stream silent for 180 s and retries it', async () => {
    const { clock, models, bus, events, invoker } = chain([[{ parts: [], stall: true }, { reply: 'ok' }]]);
    const done = invoker.invoke(request, { emit: bus });
    await clock.advance(179_999);
    expect(models[0]?.calls).toHaveLength(1);
    await clock.advance(1);
    const response = await clock.run(done);
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    const retry = eventsOf(events, 'retry')[0];
    expect(retry?.error.kind).toBe('timeout');
    expect(models[0]?.calls.map((c) => c.at)).toEqual([0, 182_000]);
  });

  it('measures silence from the last chunk', async () => {
    const { clock, models, invoker } = chain([
      [{ parts: [text(''), text('')], waitMs: 100_000, stall: true }, { reply: 'ok' }],
    ]);
    await clock.run(invoker.invoke(request));
    expect(models[0]?.calls.map((c) => c.at)).toEqual([0, 380_000 + 2_000]);
  });

  it('uses a custom stale timeout', async () => {
    const { clock, models, invoker } = chain([[{ parts: [], stall: true }, { reply: 'ok' }]], {
      stream: { staleTimeoutMs: 1_000 },
    });
    await clock.run(invoker.invoke(request));
    expect(models[0]?.calls.map((c) => c.at)).toEqual([0, 3_000]);
  });

  it('counts stale streams as stream failures, so they reach generate and then the fallback', async () => {
    const { clock, models, types, bus, invoker } = chain([
      [
        { parts: [], stall: true },
        { parts: [], stall: true },
        { error: fail('server') },
        { error: fail('server') },
      ],
      [{ reply: 'backup' }],
    ]);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'backup' }]);
    expect(models[0]?.calls.map((c) => c.method)).toEqual(['stream', 'stream', 'generate', 'generate']);
    expect(models[1]?.calls).toHaveLength(1);
    expect(types()).toEqual(['retry', 'retry', 'retry', 'fallback', 'token']);
  });

  it('reports a stall after delivered text as interrupted without retrying', async () => {
    const { clock, models, invoker } = chain([[{ parts: [text('partial')], stall: true }]]);
    const error = await clock.run(invoker.invoke(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(clock.now()).toBe(180_000);
    expect(models[0]?.calls).toHaveLength(1);
  });

  it('is off for local models', async () => {
    const { clock, models, invoker } = chain([[{ parts: [text('slow')], stall: true }]], {
      info: { local: true },
    });
    const done = invoker.invoke(request);
    await settle();
    expect(clock.pending).toBe(0);
    await clock.advance(3_600_000);
    models[0]?.release();
    const response = await done;
    expect(response.message.content).toEqual([{ type: 'text', text: 'slow' }]);
    expect(models[0]?.calls).toHaveLength(1);
  });

  it('waits longer for large prompts: 240 s above 50k estimated tokens, 300 s above 100k', async () => {
    for (const [chars, timeout] of [
      [210_000, 240_000],
      [410_000, 300_000],
    ] as const) {
      const big: ModelRequest = { messages: [userMessage('x'.repeat(chars))] };
      const { clock, models, invoker } = chain([[{ parts: [], stall: true }, { reply: 'ok' }]]);
      const done = invoker.invoke(big);
      await clock.advance(timeout - 1);
      expect(models[0]?.calls).toHaveLength(1);
      await clock.advance(1);
      await clock.run(done);
      expect(models[0]?.calls.map((c) => c.at)).toEqual([0, timeout + 2_000]);
    }
  });

  it('does not count a backpressure pause as silence', async () => {
    const { clock, models, invoker } = chain([[{ parts: [text('a'), text('b')] }]]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tokens = 0;
    const emit: Emitter = {
      runId: 'r',
      emit: (type) => {
        if (type === 'token') tokens++;
      },
      scope: () => emit,
      backpressure: () => (tokens === 1 ? gate : undefined),
    };
    const done = invoker.invoke(request, { emit });
    await clock.advance(500_000);
    release();
    await clock.run(done);
    expect(models[0]?.calls).toHaveLength(1);
    expect(tokens).toBe(2);
  });
});
