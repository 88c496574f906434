import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/core/index.js';
import { ModelError } from '../../src/index.js';
import { FakeClock, ScriptedModel, seededRandom, sequentialIds } from '../../src/testing/index.js';

const req = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

describe('ScriptedModel', () => {
  it('replies from the script in order and records every request', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: 'add', args: { a: 1 } }] }, { text: 'done' }]);
    const first = await model.generate(req('one'));
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.content).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'add', arguments: '{"a":1}' },
    ]);
    const second = await model.generate(req('two'));
    expect(second.message.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(model.requests.map((r) => r.messages[0]?.content)).toEqual(['one', 'two']);
    model.assertConsumed();
  });

  it('fails clearly on an unexpected extra call', async () => {
    const model = new ScriptedModel([{ text: 'only' }]);
    await model.generate(req('a'));
    await expect(model.generate(req('b'))).rejects.toMatchObject({ kind: 'unexpected_call' });
  });

  it('reports unconsumed steps', () => {
    const model = new ScriptedModel([{ text: 'never asked' }]);
    expect(() => model.assertConsumed()).toThrow(/never requested/);
  });

  it('streams text word by word and throws a scripted error after partial parts', async () => {
    const model = new ScriptedModel([
      { text: 'a b c' },
      { error: new ModelError('connection', 'reset'), afterParts: [{ type: 'text-delta', delta: 'x' }] },
    ]);
    const deltas: string[] = [];
    for await (const part of model.stream!(req('s'))) if (part.type === 'text-delta') deltas.push(part.delta);
    expect(deltas).toEqual(['a ', 'b ', 'c']);
    const seen: string[] = [];
    await expect(async () => {
      for await (const part of model.stream!(req('s'))) seen.push(part.type);
    }).rejects.toMatchObject({ kind: 'connection' });
    expect(seen).toEqual(['text-delta']);
  });

  it('computes a step from the request with a responder function', async () => {
    const model = new ScriptedModel([(r) => ({ text: `echo ${r.messages.length}` })]);
    const res = await model.generate(req('x'));
    expect(res.message.content).toEqual([{ type: 'text', text: 'echo 1' }]);
  });

  it('hangs until the signal aborts', async () => {
    const model = new ScriptedModel([{ hang: true }]);
    const controller = new AbortController();
    const pending = model.generate(req('x'), { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('FakeClock', () => {
  it('fires timers only when time is advanced past them', async () => {
    const clock = new FakeClock(1000);
    let fired = false;
    const done = sleep(clock, 500).then(() => {
      fired = true;
    });
    await clock.advance(499);
    expect(fired).toBe(false);
    await clock.advance(1);
    await done;
    expect(fired).toBe(true);
    expect(clock.now()).toBe(1500);
  });

  it('fires chained timers set while advancing', async () => {
    const clock = new FakeClock();
    const order: number[] = [];
    const chain = (async () => {
      await sleep(clock, 10);
      order.push(clock.now());
      await sleep(clock, 10);
      order.push(clock.now());
    })();
    await clock.advance(20);
    await chain;
    expect(order).toEqual([10, 20]);
  });

  it('cancels a sleep at once on abort and clears its timer', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const pending = sleep(clock, 10_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(clock.pending).toBe(0);
  });
});

describe('FakeClock.run and fireNext', () => {
  it('fires timers until the promise settles, and reports a deadlock', async () => {
    const clock = new FakeClock();
    const value = (async () => {
      await sleep(clock, 5_000);
      await sleep(clock, 5_000);
      return clock.now();
    })();
    expect(await clock.run(value)).toBe(10_000);
    await expect(clock.run(new Promise(() => {}))).rejects.toThrow(/no timer is left/);
  });

  it('fires only the timer whose requested duration passes the filter', async () => {
    const clock = new FakeClock();
    const fired: number[] = [];
    clock.setTimer(100, () => fired.push(100));
    clock.setTimer(180_000, () => fired.push(180_000));
    expect(clock.fireNext((ms) => ms >= 180_000)).toBe(true);
    expect(fired).toEqual([180_000]);
    expect(clock.fireNext((ms) => ms > 1e9)).toBe(false);
    expect(clock.pending).toBe(1);
  });
});

describe('deterministic seams', () => {
  it('gives the same random sequence for the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('counts ids per prefix', () => {
    const ids = sequentialIds();
    expect([ids.next('run'), ids.next('run'), ids.next('call')]).toEqual(['run_1', 'run_2', 'call_1']);
  });
});
