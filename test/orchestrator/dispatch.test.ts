/** Dispatching a plan's steps in dependency order, at a cost per step that does not grow with the plan. */
import { describe, expect, it, vi } from 'vitest';
import { dispatchSteps, type StepRecord } from '../../src/agents/orchestrator/dispatch.js';
import { flush } from '../../src/testing/index.js';
import { planStep } from './helpers.js';

function records(specs: Array<{ id: string; dependsOn?: string[] }>) {
  const map = new Map<string, StepRecord>();
  const order = specs.map(({ id, dependsOn = [] }) => {
    const step = planStep(id, dependsOn);
    const record: StepRecord = { step, status: 'pending', output: '', attempts: 0 };
    map.set(id, record);
    return record;
  });
  return { map, order };
}

describe('dispatchSteps', () => {
  it('runs a chain in order, looking each dependency up a bounded number of times per step', async () => {
    const n = 60;
    const { map, order } = records(
      Array.from({ length: n }, (_, i) => ({ id: `s${i}`, dependsOn: i ? [`s${i - 1}`] : [] })),
    );
    const get = vi.spyOn(map, 'get');
    const ran: string[] = [];
    await dispatchSteps(order, map, {
      concurrency: 1,
      onSkip: () => {},
      runStep: async (record) => {
        ran.push(record.step.id);
        record.status = 'completed';
      },
    });
    expect(ran).toEqual(order.map((r) => r.step.id));
    expect(get.mock.calls.length).toBeLessThanOrEqual(3 * n);
  });

  it('skips the dependants of a failed step, and theirs, and runs the rest', async () => {
    const { map, order } = records([
      { id: 'a' },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['b'] },
      { id: 'd' },
    ]);
    const skipped: Array<[string, string]> = [];
    const ran: string[] = [];
    await dispatchSteps(order, map, {
      concurrency: 2,
      onSkip: (record, reason) => skipped.push([record.step.id, reason]),
      runStep: async (record) => {
        ran.push(record.step.id);
        record.status = record.step.id === 'a' ? 'failed' : 'completed';
      },
    });
    expect(ran).toEqual(['a', 'd']);
    expect(skipped).toEqual([
      ['b', 'Skipped: step a it depends on failed.'],
      ['c', 'Skipped: step b it depends on was skipped.'],
    ]);
    expect(order.map((r) => r.status)).toEqual(['failed', 'skipped', 'skipped', 'completed']);
  });

  it('skips steps whose saved dependency had already failed before dispatching', async () => {
    const { map, order } = records([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
    order[0]!.status = 'failed';
    const runStep = vi.fn(async () => {});
    await dispatchSteps(order, map, { concurrency: 1, onSkip: () => {}, runStep });
    expect(runStep).not.toHaveBeenCalled();
    expect(order[1]!.status).toBe('skipped');
  });
});

describe('dispatchSteps concurrency', () => {
  it('with one slot runs the steps in plan order, not in the order they became ready', async () => {
    const { map, order } = records([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c' }]);
    const ran: string[] = [];
    await dispatchSteps(order, map, {
      concurrency: 1,
      onSkip: () => {},
      runStep: async (record) => {
        ran.push(record.step.id);
        record.status = 'completed';
      },
    });
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('runs at most `concurrency` steps at once, starting the next as one ends', async () => {
    const { map, order } = records([{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd', dependsOn: ['a'] }]);
    const gates = new Map<string, () => void>();
    let active = 0;
    let most = 0;
    const done = dispatchSteps(order, map, {
      concurrency: 2,
      onSkip: () => {},
      runStep: (record) => {
        active++;
        most = Math.max(most, active);
        return new Promise<void>((resolve) =>
          gates.set(record.step.id, () => {
            active--;
            record.status = 'completed';
            resolve();
          }),
        );
      },
    });
    await flush();
    expect([...gates.keys()]).toEqual(['a', 'b']);
    gates.get('a')!();
    await flush();
    expect([...gates.keys()]).toEqual(['a', 'b', 'c']);
    gates.get('b')!();
    await flush();
    expect([...gates.keys()]).toEqual(['a', 'b', 'c', 'd']);
    gates.get('c')!();
    gates.get('d')!();
    await done;
    expect(most).toBe(2);
    expect(order.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('rejects with the abort of a step and starts no step after it', async () => {
    const { map, order } = records([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    const started: string[] = [];
    const abort = new Error('aborted');
    const done = dispatchSteps(order, map, {
      concurrency: 1,
      onSkip: () => {},
      runStep: async (record) => {
        started.push(record.step.id);
        if (record.step.id === 'a') throw abort;
        record.status = 'completed';
      },
    });
    await expect(done).rejects.toBe(abort);
    await flush();
    expect(started).toEqual(['a']);
    expect(order.map((r) => r.status)).toEqual(['running', 'pending', 'pending']);
  });
});
