import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import {
  CheckpointError,
  type CheckpointStore,
  MemoryCheckpointStore,
} from '../../src/state/checkpoint-store.js';
import { expectInvariants } from '../support/invariants.js';
import { collect, decideComplex, planJson, setup } from './helpers.js';

/** A store whose every save throws what a full disk would. */
function brokenStore(): CheckpointStore & { attempts: number } {
  const store = {
    attempts: 0,
    async save() {
      store.attempts++;
      throw new Error('ENOSPC: no space left on device');
    },
    async load() {
      return undefined;
    },
  };
  return store;
}

/** Scripts of a two-step planned run (fresh each time: the models consume them). */
const twoSteps = () => ({
  planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
  executor: [{ text: 'one' }, { text: 'two' }],
  verifier: [{ text: 'PASS: all done' }],
  finalizer: [{ text: 'final answer' }],
});

describe('checkpoint failures', () => {
  it('a run whose every save fails still succeeds, and its result says how many saves failed and why', async () => {
    const store = brokenStore();
    const { orchestrator } = setup(twoSteps(), { checkpoints: { store } });
    const { result, events } = await collect(orchestrator, 'Two steps');
    expect(result?.status).toBe('success');
    expect(result?.checkpoints).toEqual({
      saved: 0,
      failed: store.attempts,
      lastError: 'ENOSPC: no space left on device',
    });
    expect(store.attempts).toBeGreaterThan(3);
    expect(
      events.filter((e) => e.type === 'stage' && e.name === 'checkpoint' && e.status === 'failed'),
    ).toHaveLength(store.attempts);
    expectInvariants(events);
  });

  it('a healthy store reports every save made and none failed', async () => {
    const store = new MemoryCheckpointStore();
    let saves = 0;
    const save = store.save.bind(store);
    store.save = (id, state) => {
      saves++;
      return save(id, state);
    };
    const { orchestrator } = setup(twoSteps(), { checkpoints: { store } });
    const { result } = await collect(orchestrator, 'Two steps');
    expect(result?.checkpoints).toEqual({ saved: saves, failed: 0 });
  });

  it('without a store the result has no checkpoint report', async () => {
    const { orchestrator } = setup(twoSteps());
    const { result } = await collect(orchestrator, 'Two steps');
    expect(result?.status).toBe('success');
    expect(result).not.toHaveProperty('checkpoints');
  });

  it("onCheckpointError 'fail' stops the run at the first failed save with a typed CheckpointError", async () => {
    const store = brokenStore();
    const { orchestrator, models } = setup(twoSteps(), { checkpoints: { store, onError: 'fail' } });
    const { result, error, events } = await collect(orchestrator, 'Two steps');
    expect(result?.status).toBe('failed');
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error).toMatchObject({ kind: 'io', message: expect.stringContaining('ENOSPC') });
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'io' } });
    // The first save comes after classification; no step ran past it.
    expect(models.executor.calls).toBe(0);
    expectInvariants(events);
  });

  it("onCheckpointError 'fail' keeps the store's own CheckpointError when the last save fails", async () => {
    const store = new MemoryCheckpointStore();
    const save = store.save.bind(store);
    store.save = async (id, state) => {
      if ((state as { phase?: string }).phase === 'done') {
        throw new CheckpointError('serialize', 'State of run is not JSON-serialisable');
      }
      return save(id, state);
    };
    const { orchestrator } = setup(twoSteps(), { checkpoints: { store, onError: 'fail' } });
    const { error } = await collect(orchestrator, 'Two steps');
    expect(error).toMatchObject({ name: 'CheckpointError', kind: 'serialize' });
  });

  it('rejects an unknown checkpoints.onError', () => {
    const checkpoints = { store: new MemoryCheckpointStore(), onError: 'ignore' as 'warn' };
    expect(() => setup(twoSteps(), { checkpoints })).toThrow(ConfigError);
  });
});
