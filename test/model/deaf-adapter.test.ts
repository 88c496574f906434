import { describe, expect, it } from 'vitest';
import { Executor } from '../../src/agents/index.js';
import { AbortError, RunError } from '../../src/core/errors.js';
import type { ModelInvoker } from '../../src/model/invoke.js';
import { createResilientInvoker } from '../../src/model/resilience/resilient-invoker.js';
import type { ChatModel, ModelResponse } from '../../src/model/types.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const never = <T>() => new Promise<T>(() => {});

/** A model that ignores its AbortSignal: every call hangs for ever. */
function deafModel(
  id = 'deaf:model',
  options: { streams?: boolean } = {},
): ChatModel & { calls: number; called: Promise<void> } {
  let called: () => void = () => {};
  const model = {
    id,
    calls: 0,
    called: new Promise<void>((resolve) => {
      called = resolve;
    }),
    generate() {
      model.calls++;
      called();
      return never<ModelResponse>();
    },
    ...(options.streams
      ? {
          async *stream() {
            model.calls++;
            called();
            yield* [];
            await never();
          },
        }
      : {}),
  };
  return model;
}

describe('a model adapter deaf to its AbortSignal', () => {
  it.each([
    ['generate', false],
    ['stream', true],
  ])('cannot hang a run past run.abort() (%s)', async (_label, streams) => {
    const model = deafModel('deaf:model', { streams });
    const executor = new Executor({ model, runtime: testRuntime() });
    const run = executor.run('hi');
    const settled = run.result;
    await model.called;
    run.abort();
    expect((await settled).error).toBeInstanceOf(AbortError);
  });

  it.each([
    ['generate', false],
    ['stream', true],
  ])('cannot hang a run past its timeoutMs (%s)', async (_label, streams) => {
    const runtime = testRuntime();
    const executor = new Executor({
      model: deafModel('deaf:model', { streams }),
      runtime,
      limits: { timeoutMs: 5_000 },
    });
    const { error } = await runtime.clock.run(executor.run('hi').result);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).kind).toBe('timeout');
    expect(runtime.clock.now()).toBe(5_000);
  });

  it('cannot hang a run through a custom invoker that ignores the signal', async () => {
    const runtime = testRuntime();
    const model = new ScriptedModel([]);
    const invoker: ModelInvoker = { id: 'custom', model, invoke: () => never() };
    const executor = new Executor({
      model,
      resilience: { invoker: () => invoker },
      runtime,
      limits: { timeoutMs: 1_000 },
    });
    const { error } = await runtime.clock.run(executor.run('hi').result);
    expect((error as RunError).kind).toBe('timeout');
  });

  it('drops parts a deaf stream yields after the caller stopped waiting', async () => {
    let release: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model: ChatModel = {
      id: 'late:model',
      generate: never,
      async *stream() {
        await late;
        yield { type: 'text-delta', delta: 'too late' };
      },
    };
    const executor = new Executor({ model, runtime: testRuntime() });
    const run = executor.run('hi');
    const tokens: string[] = [];
    run.on('token', (event) => tokens.push(event.delta));
    const settled = run.result.catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    run.abort();
    await settled;
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tokens).toEqual([]);
  });
});

describe('a provider that stalls every call', () => {
  it('reaches the next model in the chain: streaming times out, then the whole-call fallback has a deadline too', async () => {
    const runtime = testRuntime();
    const stalled = deafModel('stalled:model', { streams: true });
    const backup = new ScriptedModel([{ text: 'from the backup' }], { id: 'backup:model' });
    const invoker = createResilientInvoker({ models: [stalled, backup], runtime, retry: { maxRetries: 3 } });
    const executor = new Executor({
      model: stalled,
      resilience: { invoker: () => invoker },
      runtime,
      limits: { timeoutMs: 3_600_000 },
    });
    const run = executor.run('hi');
    const fallbacks: unknown[] = [];
    run.on('fallback', (event) => fallbacks.push(event));
    const result = await runtime.clock.run(run.result);
    expect(result.output).toBe('from the backup');
    expect(fallbacks).toEqual([expect.objectContaining({ from: 'stalled:model', to: 'backup:model' })]);
    // Two stale streams (the stream failure budget), then generate calls each cut at the deadline.
    expect(stalled.calls).toBe(4);
  });

  it('the generate deadline is an option, and 0 turns it off', async () => {
    const runtime = testRuntime();
    const stalled = deafModel('stalled:model');
    const backup = new ScriptedModel([{ text: 'ok' }], { id: 'backup:model' });
    const invoker = createResilientInvoker({
      models: [stalled, backup],
      runtime,
      retry: { maxRetries: 0 },
      stream: { generateTimeoutMs: 10_000 },
    });
    const response = await runtime.clock.run(invoker.invoke({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(runtime.clock.now()).toBe(10_000);
    const off = createResilientInvoker({
      models: [deafModel(), backup],
      runtime,
      stream: { generateTimeoutMs: 0 },
    });
    await expect(
      runtime.clock.run(off.invoke({ messages: [{ role: 'user', content: 'hi' }] })),
    ).rejects.toThrow(/no timer is left/);
  });
});

describe("a call's own signal", () => {
  it('aborts with the timeout when the deadline passes, for an adapter that listens to it', async () => {
    const runtime = testRuntime();
    let seen: AbortSignal | undefined;
    const listening: ChatModel = {
      id: 'listening:model',
      generate(_request, options) {
        seen = options?.signal;
        return never<ModelResponse>();
      },
    };
    const invoker = createResilientInvoker({
      models: [listening],
      runtime,
      retry: false,
      stream: { generateTimeoutMs: 10_000 },
    });
    const call = invoker.invoke({ messages: [{ role: 'user', content: 'hi' }] });
    await expect(runtime.clock.run(call)).rejects.toMatchObject({ kind: 'timeout' });
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toMatchObject({ kind: 'timeout' });
  });

  it("is already aborted when an adapter first reads it after the caller's abort", async () => {
    const runtime = testRuntime();
    const caller = new AbortController();
    let read: () => AbortSignal | undefined = () => undefined;
    const late: ChatModel = {
      id: 'late:model',
      generate(_request, options) {
        read = () => options?.signal;
        return never<ModelResponse>();
      },
    };
    const invoker = createResilientInvoker({ models: [late], runtime, retry: false });
    const call = invoker.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { signal: caller.signal });
    caller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    expect(read()?.aborted).toBe(true);
  });
});
