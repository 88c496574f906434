import { afterEach, describe, expect, it, vi } from 'vitest';
import { Run, type RunInit } from '../../src/agents/index.js';
import { AbortError, RunError } from '../../src/core/errors.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { emptyUsage } from '../../src/core/usage.js';
import { FakeClock, flush } from '../../src/testing/index.js';
import { callAdd, setup } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

function makeRun<T>(body: (signal: AbortSignal, bus: EventBus) => Promise<T>, signal?: AbortSignal): Run<T> {
  const bus = new EventBus({ runId: 'run_t', clock: new FakeClock() });
  return new Run<T>({
    bus,
    signal,
    body: (s) => body(s, bus),
    complete: (result) => ({ output: String(result), status: 'success', usage: emptyUsage() }),
    usage: () => ({ ...emptyUsage(), inputTokens: 7 }),
  });
}

describe('Run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts in a microtask, so a listener attached right after sees run_started', async () => {
    const { executor } = setup([{ text: 'hi' }]);
    const run = executor.run('hello');
    const types: string[] = [];
    run.on('run_started', (e) => types.push(`${e.type}:${e.input}`));
    run.once('complete', (e) => types.push(`${e.type}:${e.output}`));
    await run.result;
    expect(types).toEqual(['run_started:hello', 'complete:hi']);
    expect(run.isEnded).toBe(true);
  });

  it('is async-iterable from the first event to the terminal one', async () => {
    const { executor } = setup([callAdd(1, 2), { text: 'three' }]);
    const run = executor.run('q');
    const events: TandemEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events[0]!.type).toBe('run_started');
    expect(events.at(-1)!.type).toBe('complete');
    expect(events.every((e) => e.runId === run.runId)).toBe(true);
    expectInvariants(events);
  });

  it('delivers the same events to listeners and to iterators', async () => {
    const { executor } = setup([callAdd(1, 2), { text: 'three' }]);
    const run = executor.run('q');
    const heard: number[] = [];
    run.on('*', (e) => heard.push(e.seq));
    const iterated: number[] = [];
    for await (const e of run) iterated.push(e.seq);
    expect(iterated).toEqual(heard);
  });

  it('off removes a listener', async () => {
    const { executor } = setup([{ text: 'a b c' }]);
    const run = executor.run('q');
    const tokens: string[] = [];
    const listener = (e: TandemEvent<'token'>) => {
      tokens.push(e.delta);
      run.off('token', listener);
    };
    run.on('token', listener);
    await run.result;
    expect(tokens).toEqual(['a ']);
  });

  it('an iterator started after the end yields nothing, and result still settles', async () => {
    const { executor } = setup([{ text: 'done' }]);
    const run = executor.run('q');
    await run.result;
    const late: TandemEvent[] = [];
    for await (const e of run) late.push(e);
    expect(late).toEqual([]);
    await expect(run.result).resolves.toMatchObject({ output: 'done' });
  });

  it('rejects result with the typed error and emits one error event with usage', async () => {
    const run = makeRun(async () => {
      throw new RunError('plan', 'no plan');
    });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await expect(run.result).rejects.toMatchObject({ kind: 'plan', message: 'no plan' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'plan' }, usage: { inputTokens: 7 } });
  });

  it('wraps an untyped throw as an internal RunError', async () => {
    const run = makeRun(async () => {
      throw 'plain string';
    });
    await expect(run.result).rejects.toMatchObject({ kind: 'internal', message: 'plain string' });
  });

  it('does not cause an unhandled rejection when result is never observed', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      makeRun(async () => {
        throw new RunError('internal', 'nobody listens');
      });
      await flush();
      await flush();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('abort() passes the reason to the body’s signal and rejects with AbortError', async () => {
    let seen: unknown;
    const run = makeRun(
      (signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            seen = signal.reason;
            reject(signal.reason);
          }),
        ),
    );
    await flush();
    run.abort('stop now');
    const error = await run.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).message).toBe('Aborted: stop now');
    expect(seen).toBe('stop now');
  });

  it('follows the caller’s signal', async () => {
    const controller = new AbortController();
    const run = makeRun(
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      controller.signal,
    );
    await flush();
    controller.abort();
    await expect(run.result).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('emits complete from the result when the body succeeds, and nothing after it', async () => {
    const run = makeRun(async (_signal, bus) => {
      bus.emit('stage', { name: 'x', status: 'running' });
      bus.emit('stage', { name: 'x', status: 'completed' });
      return 42;
    });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await expect(run.result).resolves.toBe(42);
    expect(events.map((e) => e.type)).toEqual(['stage', 'stage', 'complete']);
    expect(events.at(-1)).toMatchObject({ output: '42', status: 'success' });
  });

  it('a throwing listener does not break the run', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { executor } = setup([callAdd(1, 2), { text: 'still fine' }]);
    const run = executor.run('q');
    run.on('tool_call', () => {
      throw new Error('listener bug');
    });
    const results: string[] = [];
    run.on('tool_result', (e) => results.push(e.output));
    const events: TandemEvent[] = [];
    for await (const e of run) events.push(e);
    await expect(run.result).resolves.toMatchObject({ output: 'still fine' });
    expect(results).toEqual(['3']);
    expect(spy).toHaveBeenCalledWith(expect.stringContaining('tool_call'), expect.any(Error));
    expectInvariants(events);
  });

  describe('the hooks of its init', () => {
    // The body settles on its signal's abort, whatever `body` does.
    const hooked = ({ body, ...hooks }: Partial<RunInit<{ n: number }>>, signal?: AbortSignal) => {
      const bus = new EventBus({ runId: 'run_h', clock: new FakeClock() });
      const order: string[] = [];
      bus.on('*', (e) => order.push(e.type));
      const run = new Run<{ n: number }>({
        bus,
        signal,
        body: (s, abort) =>
          new Promise((resolve, reject) => {
            s.addEventListener('abort', () => reject(s.reason));
            body?.(s, abort).then(resolve, reject);
          }),
        complete: (result) => ({ output: String(result.n), status: 'success', usage: emptyUsage() }),
        ...hooks,
      });
      return { run, order };
    };

    it('complete finishes the result before the complete event and before result resolves', async () => {
      const { run, order } = hooked({
        body: async () => ({ n: 1 }),
        complete: (result) => {
          result.n = 2;
          order.push('complete hook');
          return { output: String(result.n), status: 'success', usage: emptyUsage() };
        },
      });
      await expect(run.result).resolves.toEqual({ n: 2 });
      expect(order).toEqual(['complete hook', 'complete']);
    });

    it('a complete hook that throws fails the run with a typed error instead of hanging it', async () => {
      const failed = vi.fn();
      const { run, order } = hooked({
        body: async () => ({ n: 1 }),
        complete: () => {
          throw new Error('hook bug');
        },
        failed,
      });
      await expect(run.result).rejects.toMatchObject({ kind: 'internal', message: 'hook bug' });
      expect(failed).toHaveBeenCalledOnce();
      expect(order).toEqual(['error']);
    });

    it('failed is told before the error event', async () => {
      const order: string[] = [];
      const { run, order: events } = hooked({
        body: async () => {
          throw new RunError('plan', 'no plan');
        },
        failed: (error) => order.push(`failed:${(error as Error).message}`),
      });
      await run.result.catch(() => {});
      expect(order).toEqual(['failed:no plan']);
      expect(events).toEqual(['error']);
    });

    it('aborted is told once the signal aborted, whoever aborted it, and once only', async () => {
      const reasons: unknown[] = [];
      let runSignal: AbortSignal | undefined;
      const byBody = hooked({
        body: (signal, abort) => {
          runSignal = signal;
          queueMicrotask(() => abort('time is up'));
          return new Promise(() => {});
        },
        aborted: () => reasons.push(runSignal?.reason),
      });
      await byBody.run.result.catch(() => {});
      byBody.run.abort('again');
      expect(reasons).toEqual(['time is up']);

      const caller = new AbortController();
      const told = vi.fn();
      const byCaller = hooked({ body: () => new Promise(() => {}), aborted: told }, caller.signal);
      await flush();
      caller.abort('caller stop');
      await byCaller.run.result.catch(() => {});
      expect(told).toHaveBeenCalledOnce();

      const byAbort = hooked({ body: () => new Promise(() => {}), aborted: told });
      await flush();
      byAbort.run.abort();
      await expect(byAbort.run.result).rejects.toBeInstanceOf(AbortError);
      expect(told).toHaveBeenCalledTimes(2);
    });
  });
});
