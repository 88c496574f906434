/** Dispatching a plan's steps in dependency order, at a cost per step that does not grow with the plan. */
import { describe, expect, it, vi } from 'vitest';
import { dispatchSteps, type StepRecord } from '../../src/agents/orchestrator/dispatch.js';
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
