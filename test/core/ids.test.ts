import { describe, expect, it, vi } from 'vitest';
import { createIdGenerator, defaultRuntime, resolveRuntime } from '../../src/core/seams.js';
import { Executor } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function seeded(seed: number) {
  let state = seed;
  return {
    next() {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    },
  };
}

describe('ids', () => {
  it('default ids are the platform crypto.randomUUID() after the prefix', () => {
    const spy = vi.spyOn(globalThis.crypto, 'randomUUID');
    const id = defaultRuntime().ids.next('run');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(id).toBe(`run_${spy.mock.results[0]?.value}`);
    spy.mockRestore();
  });

  it('ids from a seeded random are version 4 UUIDs, the same on every run', () => {
    const a = createIdGenerator(seeded(7));
    const b = createIdGenerator(seeded(7));
    const first = a.next('call');
    expect(first.slice(5)).toMatch(UUID_V4);
    expect(b.next('call')).toBe(first);
    expect(a.next('call')).not.toBe(first);
  });

  it('a runtime given only a random draws its ids from that random', () => {
    const one = resolveRuntime({ random: seeded(3) }).ids.next('int');
    const two = resolveRuntime({ random: seeded(3) }).ids.next('int');
    expect(one).toBe(two);
  });

  it('an executor run without a runtime gets a UUID run id', async () => {
    const executor = new Executor({ model: new ScriptedModel([{ text: 'done' }]) });
    const run = executor.run('hi');
    await run.result;
    expect(run.runId.replace(/^[a-z]+_/, '')).toMatch(UUID_V4);
  });
});
