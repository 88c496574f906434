/**
 * Resilient by default: an Executor given only a model retries a failed call
 * with the seeds' backoff (on the runtime's clock), `retry: false` turns it
 * off, `fallbacks` hand over to the next model, and `invoker` is a factory of
 * the model as on the Orchestrator.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChatModel,
  ConfigError,
  directInvoker,
  Executor,
  ModelError,
  type ModelInvoker,
  RunError,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { ofType, runCollect } from '../support/executor-fixtures.js';

const unavailable = () => new ModelError('overloaded', 'Service Unavailable', { status: 503 });

describe('Executor: resilient by default', () => {
  it('retries a 503 after the seeds’ backoff on the runtime clock, with no options, and answers', async () => {
    const runtime = testRuntime();
    const model = new ScriptedModel([{ error: unavailable() }, { text: 'ok' }]);
    const executor = new Executor({ model, runtime });
    const run = executor.run('hi');
    const retries: Array<{ attempt: number; delayMs: number; error: { kind: string } }> = [];
    run.on('retry', (e) => retries.push(e));

    const result = await runtime.clock.run(run.result);

    expect(result).toMatchObject({ status: 'success', output: 'ok' });
    expect(model.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, error: { kind: 'overloaded' } });
    // Backoff of the first retry: 2 s plus up to half of it as jitter, waited on the fake clock.
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(2_000);
    expect(retries[0]!.delayMs).toBeLessThan(3_000);
    expect(runtime.clock.now()).toBeGreaterThanOrEqual(retries[0]!.delayMs);
  });

  it('with retry: false makes one call and fails with the provider’s error', async () => {
    const failure = unavailable();
    const model = new ScriptedModel([{ error: failure }, { text: 'never' }]);
    const { error, events } = await runCollect(
      new Executor({ model, runtime: testRuntime(), resilience: { retry: false } }),
      'hi',
    );
    expect(error).toBeInstanceOf(RunError);
    expect(error).toMatchObject({ kind: 'model', cause: failure });
    expect(model.requests).toHaveLength(1);
    expect(ofType(events, 'retry')).toEqual([]);
  });

  it('falls back to the next model of `fallbacks` when the model fails for good', async () => {
    const primary = new ScriptedModel([{ error: new ModelError('auth', 'bad key', { status: 401 }) }], {
      id: 'p:primary',
    });
    const backup = new ScriptedModel([{ text: 'from backup' }], { id: 'p:backup' });
    const executor = new Executor({
      model: primary,
      resilience: { fallbacks: [backup] },
      runtime: testRuntime(),
    });
    const { result, events } = await runCollect(executor, 'hi');
    expect(result).toMatchObject({ status: 'success', output: 'from backup' });
    expect(ofType(events, 'fallback')).toMatchObject([{ from: 'p:primary', to: 'p:backup' }]);
    expect(ofType(events, 'usage')).toMatchObject([{ model: 'p:backup' }]);
  });

  it('builds its invoker with the `invoker` factory, given the model', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    const given: unknown[] = [];
    const invoker = (m: ChatModel): ModelInvoker => {
      given.push(m);
      return { id: 'custom', model: m, invoke: (request, options) => m.generate(request, options) };
    };
    const { result } = await runCollect(
      new Executor({ model, resilience: { invoker }, runtime: testRuntime() }),
      'hi',
    );
    expect(given).toEqual([model]);
    expect(result).toMatchObject({ output: 'ok' });
  });
});

describe('an invoker given as an instance', () => {
  it('is refused with a ConfigError that shows the factory form', () => {
    const model = new ScriptedModel([{ text: 'hi' }]);
    const invoker = directInvoker(model);
    expect(() => new Executor({ model, resilience: { invoker: invoker as never } })).toThrow(ConfigError);
    expect(() => new Executor({ model, resilience: { invoker: invoker as never } })).toThrow(
      /invoker: \(\) => yourInvoker/,
    );
  });
});
