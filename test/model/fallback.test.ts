import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { userMessage } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import {
  createResilientInvoker,
  type ResilientInvokerOptions,
} from '../../src/model/resilience/resilient-invoker.js';
import type { ModelRequest } from '../../src/model/types.js';
import {
  eventsOf,
  FakeClock,
  fail,
  recordEvents,
  ScriptedModel,
  type Step,
  sequenceRandom,
} from './support.js';

const request: ModelRequest = { messages: [userMessage('hi')] };

function chain(scripts: Step[][], options: Partial<ResilientInvokerOptions> & { streams?: boolean } = {}) {
  const clock = new FakeClock();
  const models = scripts.map(
    (script, i) => new ScriptedModel(`p:m${i}`, script, clock, { streams: options.streams ?? false }),
  );
  const { bus, events, types } = recordEvents(clock);
  const invoker = createResilientInvoker({
    ...options,
    models,
    runtime: { clock, random: sequenceRandom(0) },
  });
  return { clock, models, bus, events, types, invoker };
}

describe('fallback chain', () => {
  it('falls back after the retries of the primary are exhausted', async () => {
    const { clock, models, bus, events, types, invoker } = chain([
      [
        { error: fail('server') },
        { error: fail('server') },
        { error: fail('server') },
        { error: fail('server') },
      ],
      [{ reply: 'from backup' }],
    ]);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'from backup' }]);
    expect(models.map((m) => m.calls.length)).toEqual([4, 1]);
    expect(types()).toEqual(['retry', 'retry', 'retry', 'fallback', 'token']);
    expect(eventsOf(events, 'fallback')[0]).toMatchObject({
      from: 'p:m0',
      to: 'p:m1',
      error: { kind: 'server', message: 'server failure' },
    });
  });

  it('falls back at once on a rate limit when there is a next model', async () => {
    const { clock, models, types, bus, invoker } = chain([
      [{ error: fail('rate_limit', { status: 429, retryAfterMs: 30_000 }) }],
      [{ reply: 'ok' }],
    ]);
    await clock.run(invoker.invoke(request, { emit: bus }));
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    expect(types()).toEqual(['fallback', 'token']);
    expect(clock.now()).toBe(0);
  });

  for (const kind of ['auth', 'not_found', 'bad_request'] as const) {
    it(`falls back at once on ${kind}`, async () => {
      const { clock, models, invoker } = chain([[{ error: fail(kind) }], [{ reply: 'ok' }]]);
      await clock.run(invoker.invoke(request));
      expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    });
  }

  it('falls back on an empty reply from generate', async () => {
    const empty = {
      message: { role: 'assistant' as const, content: [{ type: 'text' as const, text: '  \n' }] },
      finishReason: 'stop' as const,
      usage: emptyUsage(),
    };
    const { clock, models, events, bus, invoker } = chain([[{ reply: empty }], [{ reply: 'ok' }]]);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    expect(eventsOf(events, 'fallback')[0]?.error.kind).toBe('empty_response');
    expect(eventsOf(events, 'token').map((e) => e.delta)).toEqual(['ok']);
  });

  it('falls back on an empty streamed reply that showed nothing', async () => {
    const { clock, models, invoker } = chain(
      [[{ parts: [{ type: 'text-delta', delta: '' }] }], [{ reply: 'ok' }]],
      { streams: true },
    );
    await clock.run(invoker.invoke(request));
    expect(models.map((m) => m.count('stream'))).toEqual([1, 1]);
  });

  it('returns an empty reply of the last model as is, for the caller to judge', async () => {
    const { clock, models, bus, events, invoker } = chain([[{ error: fail('auth') }], [{ reply: '' }]]);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([]);
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    expect(events.map((e) => e.type)).toEqual(['fallback']);
    expect(clock.now()).toBe(0);
  });

  it('returns an empty streamed reply of the last model even after reasoning was shown', async () => {
    const { clock, models, invoker } = chain([[{ parts: [{ type: 'reasoning-delta', delta: 'hmm' }] }]], {
      streams: true,
    });
    const response = await clock.run(invoker.invoke(request));
    expect(response.message.content).toEqual([{ type: 'reasoning', text: 'hmm' }]);
    expect(models[0]?.calls).toHaveLength(1);
  });

  it('retries an empty reply with backoff when empty_response is not an eager kind', async () => {
    const { clock, models, invoker } = chain(
      [[{ reply: '' }, { reply: 'second try' }], [{ reply: 'never' }]],
      {
        fallback: { eagerKinds: ['rate_limit'] },
      },
    );
    const response = await clock.run(invoker.invoke(request));
    expect(response.message.content).toEqual([{ type: 'text', text: 'second try' }]);
    expect(models.map((m) => m.calls.map((c) => c.at))).toEqual([[0, 2_000], []]);
  });

  it('retries a rate limit on the last model, honouring Retry-After', async () => {
    const { clock, models, invoker } = chain([
      [
        { error: fail('server') },
        { error: fail('server') },
        { error: fail('server') },
        { error: fail('server') },
      ],
      [{ error: fail('rate_limit', { retryAfterMs: 9_000 }) }, { reply: 'ok' }],
    ]);
    await clock.run(invoker.invoke(request));
    expect(models.map((m) => m.calls.length)).toEqual([4, 2]);
    expect(models[1]?.calls.map((c) => c.at)).toEqual([14_000, 23_000]);
  });

  it('tries the primary again on the next invoke', async () => {
    const { clock, models, invoker } = chain([
      [{ error: fail('auth') }, { reply: 'primary back' }],
      [{ reply: 'backup' }],
    ]);
    const first = await clock.run(invoker.invoke(request));
    const second = await clock.run(invoker.invoke(request));
    expect(first.message.content).toEqual([{ type: 'text', text: 'backup' }]);
    expect(second.message.content).toEqual([{ type: 'text', text: 'primary back' }]);
    expect(models.map((m) => m.calls.length)).toEqual([2, 1]);
  });

  it("throws the last model's error when the whole chain fails", async () => {
    const last = fail('not_found');
    const { clock, models, types, bus, invoker } = chain([[{ error: fail('auth') }], [{ error: last }]]);
    await expect(clock.run(invoker.invoke(request, { emit: bus }))).rejects.toBe(last);
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    expect(types()).toEqual(['fallback']);
  });

  it('does not fall back on a context-length error (the next model gets the same request)', async () => {
    const error = fail('context_length');
    const { clock, models, invoker } = chain([[{ error }], [{ reply: 'never' }]]);
    await expect(clock.run(invoker.invoke(request))).rejects.toBe(error);
    expect(models.map((m) => m.calls.length)).toEqual([1, 0]);
  });

  it('uses custom eager kinds', async () => {
    const { clock, models, invoker } = chain([[{ error: fail('overloaded') }], [{ reply: 'ok' }]], {
      fallback: { eagerKinds: ['overloaded'] },
    });
    await clock.run(invoker.invoke(request));
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
  });

  it('rejects eager kinds that can never trigger a fallback', () => {
    expect(() => chain([[]], { fallback: { eagerKinds: ['context_length'] } })).toThrow(ConfigError);
  });
});
