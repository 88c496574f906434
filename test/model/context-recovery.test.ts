import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { userMessage } from '../../src/core/messages.js';
import type { CompressHook } from '../../src/model/invoke.js';
import {
  nextContextLimit,
  resolveContextRecoveryPolicy,
} from '../../src/model/resilience/context-recovery.js';
import {
  createResilientInvoker,
  type ResilientInvokerOptions,
} from '../../src/model/resilience/resilient-invoker.js';
import type { ModelInfo, ModelRequest } from '../../src/model/types.js';
import { FakeClock, fail, recordEvents, ScriptedModel, type Step, sequenceRandom } from './support.js';

const request: ModelRequest = { messages: [userMessage('a long conversation')] };

function setup(script: Step[], options: Partial<ResilientInvokerOptions> & { info?: ModelInfo } = {}) {
  const clock = new FakeClock();
  const model = new ScriptedModel('p:m', script, clock, { streams: false, info: options.info });
  const { bus, events } = recordEvents(clock);
  const invoker = createResilientInvoker({
    ...options,
    models: [model],
    runtime: { clock, random: sequenceRandom(0) },
  });
  const hooks: Array<Parameters<CompressHook>[1]> = [];
  const compress: CompressHook = async (req, info) => {
    hooks.push(info);
    return { ...req, messages: [userMessage(`compressed ${hooks.length}`)] };
  };
  return { clock, model, bus, events, invoker, hooks, compress };
}

describe('context-length recovery', () => {
  it('steps down 128k → 64k → 32k → 16k and gives up after 3 compressions', async () => {
    const last = fail('context_length');
    const { clock, model, invoker, hooks, compress } = setup([
      { error: fail('context_length') },
      { error: fail('context_length') },
      { error: fail('context_length') },
      { error: last },
    ]);
    await expect(clock.run(invoker.invoke(request, { compress }))).rejects.toBe(last);
    expect(hooks).toEqual([
      { reason: 'context_length', contextLimit: 64_000 },
      { reason: 'context_length', contextLimit: 32_000 },
      { reason: 'context_length', contextLimit: 16_000 },
    ]);
    expect(model.calls).toHaveLength(4);
  });

  it('retries with the compressed request, without waiting or spending a retry', async () => {
    const { clock, model, invoker, compress, bus, events } = setup(
      [{ error: fail('context_length') }, { reply: 'ok' }],
      {
        retry: { maxRetries: 0 },
      },
    );
    await clock.run(invoker.invoke(request, { compress, emit: bus }));
    expect(model.calls[0]?.request).toBe(request);
    expect(model.calls[1]?.request.messages).toEqual([userMessage('compressed 1')]);
    expect(model.calls[1]?.at).toBe(0);
    expect(events.filter((e) => e.type !== 'token')).toEqual([]);
  });

  it('takes the limit from the error when it names one', async () => {
    const { clock, invoker, hooks, compress } = setup([
      { error: fail('context_length', { contextLimit: 32_768 }) },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request, { compress }));
    expect(hooks).toEqual([{ reason: 'context_length', contextLimit: 32_768 }]);
  });

  it("starts from the model's known window", async () => {
    const { clock, invoker, hooks, compress } = setup([{ error: fail('context_length') }, { reply: 'ok' }], {
      info: { contextWindow: 200_000 },
    });
    await clock.run(invoker.invoke(request, { compress }));
    expect(hooks[0]?.contextLimit).toBe(128_000);
  });

  it('remembers a stepped-down window after a successful call', async () => {
    const { clock, invoker, hooks, compress } = setup([
      { error: fail('context_length') },
      { reply: 'ok' },
      { error: fail('context_length') },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request, { compress }));
    await clock.run(invoker.invoke(request, { compress }));
    expect(hooks.map((h) => h.contextLimit)).toEqual([64_000, 32_000]);
  });

  it('throws the error when there is no compression seam', async () => {
    const error = fail('context_length');
    const { clock, model, invoker } = setup([{ error }]);
    await expect(clock.run(invoker.invoke(request))).rejects.toBe(error);
    expect(model.calls).toHaveLength(1);
  });

  it('throws the error when the seam cannot shrink the request', async () => {
    const error = fail('context_length');
    const { clock, model, invoker } = setup([{ error }]);
    let called = 0;
    const compress: CompressHook = async () => {
      called++;
      return undefined;
    };
    await expect(clock.run(invoker.invoke(request, { compress }))).rejects.toBe(error);
    expect([called, model.calls.length]).toEqual([1, 1]);
  });
});

describe('413 payload too large', () => {
  it('compresses and retries a 413', async () => {
    const { clock, invoker, hooks, compress } = setup([
      { error: fail('payload_too_large', { status: 413 }) },
      { reply: 'ok' },
    ]);
    const response = await clock.run(invoker.invoke(request, { compress }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(hooks).toEqual([{ reason: 'payload_too_large' }]);
  });

  it('shares the 3 compressions with context-length errors', async () => {
    const last = fail('payload_too_large');
    const { clock, model, invoker, hooks, compress } = setup([
      { error: fail('payload_too_large') },
      { error: fail('context_length') },
      { error: fail('payload_too_large') },
      { error: last },
    ]);
    await expect(clock.run(invoker.invoke(request, { compress }))).rejects.toBe(last);
    expect(hooks.map((h) => h.reason)).toEqual(['payload_too_large', 'context_length', 'payload_too_large']);
    expect(model.calls).toHaveLength(4);
  });

  it('starts a fresh count on each invoke', async () => {
    const { clock, invoker, hooks, compress } = setup([
      { error: fail('payload_too_large') },
      { error: fail('payload_too_large') },
      { error: fail('payload_too_large') },
      { reply: 'ok' },
      { error: fail('payload_too_large') },
      { reply: 'ok' },
    ]);
    await clock.run(invoker.invoke(request, { compress }));
    await clock.run(invoker.invoke(request, { compress }));
    expect(hooks).toHaveLength(4);
  });
});

describe('policy', () => {
  it('steps below the smallest tier to the smallest tier', () => {
    const policy = resolveContextRecoveryPolicy();
    expect(nextContextLimit(fail('context_length'), 8_000, policy)).toBe(8_000);
    expect(nextContextLimit(fail('context_length'), 4_000, policy)).toBe(4_000);
    expect(nextContextLimit(fail('context_length'), 100_000, policy)).toBe(64_000);
  });

  it('sorts custom tiers and rejects invalid ones', () => {
    expect(resolveContextRecoveryPolicy({ tiers: [8_000, 32_000] }).tiers).toEqual([32_000, 8_000]);
    expect(() => resolveContextRecoveryPolicy({ tiers: [0] })).toThrow(ConfigError);
    expect(() => resolveContextRecoveryPolicy({ maxAttempts: -1 })).toThrow(ConfigError);
  });
});
