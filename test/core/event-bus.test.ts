import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { emptyUsage } from '../../src/core/usage.js';
import { FakeClock, flush } from '../../src/testing/index.js';

function bus(options: { highWaterMark?: number; onListenerError?: (e: unknown) => void } = {}) {
  const clock = new FakeClock(1_000);
  return { clock, bus: new EventBus({ runId: 'run_1', clock, ...options }) };
}
const complete = { output: 'done', status: 'success' as const, usage: emptyUsage() };

describe('EventBus', () => {
  it('numbers events from 1 with strictly increasing seq, the run id and the clock time', async () => {
    const { bus: b, clock } = bus();
    const events: TandemEvent[] = [];
    b.on('*', (e) => events.push(e));
    b.emit('token', { delta: 'a' });
    await clock.advance(5);
    b.emit('token', { delta: 'b' });
    expect(events.map((e) => [e.seq, e.at, e.runId])).toEqual([
      [1, 1_000, 'run_1'],
      [2, 1_005, 'run_1'],
    ]);
  });

  it('stamps the tags of scoped emitters, inner tags over outer ones', () => {
    const { bus: b } = bus();
    const events: TandemEvent[] = [];
    b.on('*', (e) => events.push(e));
    const step = b.scope({ agent: 'executor', stepId: 's1' });
    step.scope({ parentId: 'call_1', agent: 'skill' }).emit('token', { delta: 'x' });
    expect(events[0]).toMatchObject({ agent: 'skill', stepId: 's1', parentId: 'call_1', delta: 'x' });
    expect(step.runId).toBe('run_1');
  });

  it('calls typed listeners for their type only; once fires once; off removes', () => {
    const { bus: b } = bus();
    const tokens: string[] = [];
    const reasoning: string[] = [];
    const listener = (e: TandemEvent<'token'>) => tokens.push(e.delta);
    b.on('token', listener);
    b.once('reasoning', (e) => reasoning.push(e.delta));
    b.emit('token', { delta: 't1' });
    b.emit('reasoning', { delta: 'r1' });
    b.emit('reasoning', { delta: 'r2' });
    b.off('token', listener);
    b.emit('token', { delta: 't2' });
    expect(tokens).toEqual(['t1']);
    expect(reasoning).toEqual(['r1']);
  });

  it('ends after the terminal event: later emits are dropped', () => {
    const { bus: b } = bus();
    const types: string[] = [];
    b.on('*', (e) => types.push(e.type));
    b.emit('complete', complete);
    b.emit('token', { delta: 'late' });
    b.emit('error', { error: { kind: 'x', message: 'y' } });
    expect(types).toEqual(['complete']);
    expect(b.isEnded).toBe(true);
  });

  it('gives every async iterator every event and ends it after the terminal event', async () => {
    const { bus: b } = bus();
    const first = b[Symbol.asyncIterator]();
    const second = b[Symbol.asyncIterator]();
    b.emit('token', { delta: 'a' });
    b.emit('complete', complete);
    for (const iterator of [first, second]) {
      expect((await iterator.next()).value).toMatchObject({ type: 'token' });
      expect((await iterator.next()).value).toMatchObject({ type: 'complete' });
      expect((await iterator.next()).done).toBe(true);
    }
  });

  it('resolves a waiting iterator as soon as an event arrives', async () => {
    const { bus: b } = bus();
    const iterator = b[Symbol.asyncIterator]();
    const pending = iterator.next();
    b.emit('token', { delta: 'now' });
    await expect(pending).resolves.toMatchObject({ value: { delta: 'now' }, done: false });
  });

  it('reports a throwing listener and keeps delivering events', () => {
    const onListenerError = vi.fn();
    const { bus: b } = bus({ onListenerError });
    const seen: string[] = [];
    b.on('token', (e) => {
      if (e.delta === 'bad') throw new Error('listener bug');
      seen.push(e.delta);
    });
    const iterator = b[Symbol.asyncIterator]();
    b.emit('token', { delta: 'bad' });
    b.emit('token', { delta: 'good' });
    expect(onListenerError).toHaveBeenCalledTimes(1);
    expect(onListenerError.mock.calls[0]![1]).toMatchObject({ delta: 'bad' });
    expect(seen).toEqual(['good']);
    return expect(iterator.next()).resolves.toMatchObject({ value: { delta: 'bad' } });
  });

  it('still delivers an event to the other listeners and to "*" when one listener throws', () => {
    const onListenerError = vi.fn();
    const { bus: b } = bus({ onListenerError });
    const second: string[] = [];
    const all: string[] = [];
    const bad = () => {
      throw new Error('first listener bug');
    };
    b.on('token', bad);
    b.on('token', (e) => second.push(e.delta));
    b.on('*', (e) => all.push(e.type));
    b.emit('token', { delta: 'x' });
    expect(second).toEqual(['x']);
    expect(all).toEqual(['token']);
    expect(onListenerError).toHaveBeenCalledTimes(1);
    b.off('token', bad);
    b.emit('token', { delta: 'y' });
    expect(onListenerError).toHaveBeenCalledTimes(1);
  });

  describe('listeners', () => {
    it('calls the listeners of a type in the order they were added, and none of another type', () => {
      const { bus: b } = bus();
      const calls: string[] = [];
      b.on('token', (e) => calls.push(`first ${e.delta}`));
      b.on('token', (e) => calls.push(`second ${e.delta}`));
      b.on('reasoning', (e) => calls.push(`other ${e.delta}`));
      b.emit('token', { delta: '1' });
      expect(calls).toEqual(['first 1', 'second 1']);
    });

    it('delivers an event a listener emits after the current one reached every listener, in seq order', () => {
      const { bus: b } = bus();
      const calls: string[] = [];
      b.on('token', (e) => {
        calls.push(`first ${e.delta}#${e.seq}`);
        if (e.delta === '1') b.emit('token', { delta: '2' });
      });
      b.on('token', (e) => calls.push(`second ${e.delta}#${e.seq}`));
      b.emit('token', { delta: '1' });
      expect(calls).toEqual(['first 1#1', 'second 1#1', 'first 2#2', 'second 2#2']);
    });

    it('removes a once listener before calling it, so an event it causes does not reach it again', () => {
      const { bus: b } = bus();
      const calls: string[] = [];
      b.once('token', (e) => {
        calls.push(e.delta);
        if (e.delta === '1') b.emit('token', { delta: '2' });
      });
      b.emit('token', { delta: '1' });
      b.emit('token', { delta: '3' });
      expect(calls).toEqual(['1']);
    });

    it('delivers an event to the listeners registered when it started, whatever they add or remove', () => {
      const { bus: b } = bus();
      const calls: string[] = [];
      const late = () => calls.push('late');
      const second = () => calls.push('second');
      b.on('token', () => {
        calls.push('first');
        b.off('token', second);
        b.on('token', late);
      });
      b.on('token', second);
      b.emit('token', { delta: '1' });
      expect(calls).toEqual(['first', 'second']);
      calls.length = 0;
      b.emit('token', { delta: '2' });
      expect(calls).toEqual(['first', 'late']);
    });

    it('removes every registration of a function, once or not', () => {
      const { bus: b } = bus();
      const calls: string[] = [];
      const fn = (e: TandemEvent<'token'>) => calls.push(e.delta);
      b.on('token', fn);
      b.once('token', fn);
      b.off('token', fn);
      b.emit('token', { delta: '1' });
      expect(calls).toEqual([]);
    });
  });

  describe('backpressure', () => {
    it('returns undefined (no promise) while no iterator lags', () => {
      const { bus: b } = bus({ highWaterMark: 4 });
      b[Symbol.asyncIterator]();
      b.emit('token', { delta: 'x' });
      expect(b.backpressure()).toBeUndefined();
    });

    it('pauses a producer at the high-water mark until a slow iterator drains to half, losing nothing', async () => {
      const { bus: b } = bus({ highWaterMark: 4 });
      const iterator = b[Symbol.asyncIterator]();
      let produced = 0;
      let consumed = 0;
      let maxQueued = 0;
      const producer = (async () => {
        for (let i = 0; i < 20; i++) {
          b.emit('token', { delta: String(i) });
          produced++;
          maxQueued = Math.max(maxQueued, produced - consumed);
          const pause = b.backpressure();
          if (pause) await pause;
        }
        b.emit('complete', complete);
      })();
      await flush();
      expect(produced).toBe(4);
      const received: string[] = [];
      const take = async () => {
        consumed++;
        const { value } = await iterator.next();
        if (value?.type === 'token') received.push(value.delta);
        await flush();
      };
      await take();
      expect(produced).toBe(4);
      await take();
      expect(produced).toBe(6);
      while (received.length < 20) await take();
      await producer;
      expect(received).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
      expect(maxQueued).toBeLessThanOrEqual(4);
      expect((await iterator.next()).value).toMatchObject({ type: 'complete' });
      expect((await iterator.next()).done).toBe(true);
    });

    it('releases a paused producer when the lagging iterator is returned', async () => {
      const { bus: b } = bus({ highWaterMark: 2 });
      const iterator = b[Symbol.asyncIterator]();
      b.emit('token', { delta: '1' });
      b.emit('token', { delta: '2' });
      const pause = b.backpressure();
      expect(pause).toBeInstanceOf(Promise);
      await iterator.return!();
      await expect(pause).resolves.toBeUndefined();
      expect(b.backpressure()).toBeUndefined();
    });

    it('releases a paused producer when the run ends', async () => {
      const { bus: b } = bus({ highWaterMark: 2 });
      b[Symbol.asyncIterator]();
      b.emit('token', { delta: '1' });
      b.emit('token', { delta: '2' });
      const pause = b.backpressure()!;
      b.emit('error', { error: { kind: 'aborted', message: 'stop' } });
      await expect(pause).resolves.toBeUndefined();
    });
  });

  describe('with nobody listening', () => {
    const usage = (inputTokens: number) => ({ ...emptyUsage(), inputTokens, outputTokens: 1 });
    const priced = (clock: FakeClock) =>
      new EventBus({ runId: 'run_1', clock, prices: () => ({ input: 1, output: 2 }) });

    it('still numbers its events and prices and totals usage, as a listener attached later sees', () => {
      const b = priced(new FakeClock(0));
      b.emit('token', { delta: 'unheard' });
      b.emit('usage', { model: 'm', usage: usage(10), total: emptyUsage() });
      const events: TandemEvent[] = [];
      b.on('*', (e) => events.push(e));
      b.emit('usage', { model: 'm', usage: usage(5), total: emptyUsage() });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ seq: 3, type: 'usage', total: { inputTokens: 15, outputTokens: 2 } });
      // Priced per call: (10 + 1·2) / 1e6 before, (5 + 2) / 1e6 now.
      expect(b.usage.costUsd).toBeCloseTo(19 / 1_000_000, 12);
    });

    it('an iterator started mid-run goes on from where the run is', async () => {
      const { bus: b } = bus();
      b.emit('token', { delta: 'unread 1' });
      b.emit('token', { delta: 'unread 2' });
      const seen: TandemEvent[] = [];
      const reading = (async () => {
        for await (const e of b) seen.push(e);
      })();
      b.emit('token', { delta: 'read' });
      b.emit('complete', complete);
      await reading;
      expect(seen.map((e) => [e.type, e.seq])).toEqual([
        ['token', 3],
        ['complete', 4],
      ]);
    });

    it('ends on complete: an iterator started afterwards yields nothing', async () => {
      const { bus: b } = bus();
      b.emit('complete', complete);
      expect(b.isEnded).toBe(true);
      const seen: TandemEvent[] = [];
      for await (const e of b) seen.push(e);
      expect(seen).toEqual([]);
    });
  });
});
