import { describe, expect, it } from 'vitest';
import { AbortError, ConfigError, ModelError } from '../../src/core/errors.js';
import { userMessage } from '../../src/core/messages.js';
import { createResilientInvoker } from '../../src/model/resilience/resilient-invoker.js';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
  retryDelay,
} from '../../src/model/resilience/retry-policy.js';
import type { ModelRequest } from '../../src/model/types.js';
import {
  eventsOf,
  FakeClock,
  fail,
  recordEvents,
  ScriptedModel,
  type Step,
  seededRandom,
  sequenceRandom,
  settle,
} from './support.js';

const request: ModelRequest = { messages: [userMessage('hi')] };

function setup(script: Step[], random = sequenceRandom(0), options: { streams?: boolean } = {}) {
  const clock = new FakeClock();
  const model = new ScriptedModel('p:primary', script, clock, { streams: options.streams ?? false });
  const { bus, events } = recordEvents(clock);
  const invoker = createResilientInvoker({ models: [model], runtime: { clock, random } });
  return { clock, model, bus, events, invoker };
}

describe('backoff', () => {
  it('waits 2 s, 4 s, 8 s between the 3 retries without jitter', async () => {
    const { clock, model, bus, events, invoker } = setup([
      { error: fail('server') },
      { error: fail('server') },
      { error: fail('overloaded') },
      { reply: 'ok' },
    ]);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(model.calls.map((call) => call.at)).toEqual([0, 2_000, 6_000, 14_000]);
    expect(eventsOf(events, 'retry').map((e) => [e.attempt, e.delayMs, e.error.kind])).toEqual([
      [1, 2_000, 'server'],
      [2, 4_000, 'server'],
      [3, 8_000, 'overloaded'],
    ]);
  });

  it('adds seeded jitter of up to half of each wait', async () => {
    const random = seededRandom(42);
    const expected = seededRandom(42);
    const { clock, bus, events, invoker } = setup(
      [{ error: fail('server') }, { error: fail('server') }, { error: fail('server') }, { reply: 'ok' }],
      random,
    );
    await clock.run(invoker.invoke(request, { emit: bus }));
    const delays = eventsOf(events, 'retry').map((e) => e.delayMs);
    const bases = [2_000, 4_000, 8_000];
    delays.forEach((delay, i) => {
      const base = bases[i] as number;
      expect(delay).toBeGreaterThanOrEqual(base);
      expect(delay).toBeLessThan(base * 1.5);
      expect(delay).toBe(Math.round(base + expected.next() * 0.5 * base));
    });
    expect(new Set(delays.map((d, i) => d - (bases[i] as number))).size).toBeGreaterThan(1);
  });

  it('caps the exponential part at maxDelayMs', () => {
    const policy = resolveRetryPolicy({ jitter: 0 });
    expect(backoffDelay(6, policy, sequenceRandom(0))).toBe(60_000);
    expect(backoffDelay(5, policy, sequenceRandom(0))).toBe(32_000);
    expect(backoffDelay(6, DEFAULT_RETRY_POLICY, sequenceRandom(0.999))).toBeLessThan(90_000);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const last = fail('server', { status: 503 });
    const { clock, model, bus, events, invoker } = setup([
      { error: fail('server') },
      { error: fail('server') },
      { error: fail('server') },
      { error: last },
    ]);
    await expect(clock.run(invoker.invoke(request, { emit: bus }))).rejects.toBe(last);
    expect(model.calls).toHaveLength(4);
    expect(eventsOf(events, 'retry')).toHaveLength(3);
  });
});

describe('Retry-After', () => {
  it('retries a 429 after the Retry-After delay', async () => {
    const { clock, model, invoker, bus, events } = setup([
      { error: fail('rate_limit', { status: 429, retryAfterMs: 7_000 }) },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request, { emit: bus }));
    expect(model.calls.map((c) => c.at)).toEqual([0, 7_000]);
    expect(eventsOf(events, 'retry')[0]?.delayMs).toBe(7_000);
  });

  it('caps a long Retry-After at retryAfterCapMs', async () => {
    const { clock, model, invoker } = setup([
      { error: fail('rate_limit', { retryAfterMs: 3_600_000 }) },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request));
    expect(model.calls.map((c) => c.at)).toEqual([0, 120_000]);
  });

  it('treats a negative Retry-After as no wait and ignores jitter', () => {
    const policy = resolveRetryPolicy();
    expect(
      retryDelay(1, fail('overloaded', { retryAfterMs: -5 }), { retry: policy, random: sequenceRandom(0.9) }),
    ).toBe(0);
    expect(
      retryDelay(1, fail('overloaded', { retryAfterMs: 1_500 }), {
        retry: policy,
        random: sequenceRandom(0.9),
      }),
    ).toBe(1_500);
  });
});

describe('what is not retried', () => {
  for (const kind of ['auth', 'not_found', 'bad_request', 'content_filter'] as const) {
    it(`does not retry ${kind}`, async () => {
      const error = fail(kind);
      const { clock, model, invoker, bus, events } = setup([{ error }]);
      await expect(clock.run(invoker.invoke(request, { emit: bus }))).rejects.toBe(error);
      expect(model.calls).toHaveLength(1);
      expect(events).toHaveLength(0);
    });
  }

  it('does not retry an error marked non-retryable by the adapter', async () => {
    const error = fail('server', { retryable: false });
    const { clock, model, invoker } = setup([{ error }]);
    await expect(clock.run(invoker.invoke(request))).rejects.toBe(error);
    expect(model.calls).toHaveLength(1);
  });

  it('turns a non-tandem error into a non-retryable invalid_response', async () => {
    const { clock, model, invoker } = setup([{ error: new TypeError('cannot read x of undefined') }]);
    const error = await clock.run(invoker.invoke(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'invalid_response', retryable: false });
    expect(model.calls).toHaveLength(1);
  });

  it("retries an adapter's own abort (no caller abort) as a timeout", async () => {
    const { clock, model, invoker, bus, events } = setup([
      { error: new DOMException('timed out', 'TimeoutError') },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request, { emit: bus }));
    expect(model.calls).toHaveLength(2);
    expect(eventsOf(events, 'retry')[0]?.error.kind).toBe('timeout');
  });
});

describe('abort', () => {
  it('ends a backoff wait at once with an AbortError', async () => {
    const { clock, model, invoker } = setup([{ error: fail('server') }, { reply: 'never' }]);
    const controller = new AbortController();
    const result = invoker.invoke(request, { signal: controller.signal }).catch((e: unknown) => e);
    await settle();
    expect(clock.pending).toBe(1);
    controller.abort('user stop');
    const error = await result;
    expect(error).toBeInstanceOf(AbortError);
    expect(clock.now()).toBe(0);
    expect(clock.pending).toBe(0);
    expect(model.calls).toHaveLength(1);
  });

  it('does not call the model when the signal is already aborted', async () => {
    const { model, invoker } = setup([{ reply: 'never' }]);
    await expect(invoker.invoke(request, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(model.calls).toHaveLength(0);
  });

  it('reports a stream aborted by the caller as an abort, not a retryable failure', async () => {
    const { clock, model, invoker } = setup(
      [{ parts: [], stall: true }, { reply: 'never' }],
      sequenceRandom(0),
      {
        streams: true,
      },
    );
    const controller = new AbortController();
    const result = invoker.invoke(request, { signal: controller.signal }).catch((e: unknown) => e);
    await settle();
    controller.abort();
    expect(await result).toBeInstanceOf(AbortError);
    expect(model.calls).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });
});

describe('options', () => {
  it('rejects invalid retry options and an empty chain with a ConfigError', () => {
    expect(() => resolveRetryPolicy({ maxRetries: -1 })).toThrow(ConfigError);
    expect(() => resolveRetryPolicy({ maxRetries: 1.5 })).toThrow(ConfigError);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(ConfigError);
    expect(() => createResilientInvoker({ models: [] })).toThrow(ConfigError);
  });

  it('keeps defaults for options passed as undefined', () => {
    expect(resolveRetryPolicy({ maxRetries: undefined, baseDelayMs: 500 })).toMatchObject({
      maxRetries: 3,
      baseDelayMs: 500,
    });
  });
});
