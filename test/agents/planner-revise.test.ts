import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../src/agents/planner/index.js';
import { Planner } from '../../src/agents/planner/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { textOf } from '../../src/core/messages.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { type ScriptEntry, ScriptedModel } from '../../src/testing/scripted-model.js';

function step(id: string, description: string, dependsOn: string[] = []): PlanStep {
  return { id, description, expectedOutput: '', tools: [], expectedFiles: [], risk: 'safe', dependsOn };
}

const plan: Plan = {
  title: 'Report',
  summary: 'Write a sales report',
  steps: [
    step('load', 'Load sales.csv'),
    step('chart', 'Chart sales', ['load']),
    step('write', 'Write', ['chart']),
  ],
};

function setup(script: ScriptEntry[]) {
  const model = new ScriptedModel(script);
  const clock = new FakeClock();
  return { model, clock, planner: new Planner({ model, runtime: { clock } }) };
}

const json = (value: unknown) => ({ text: JSON.stringify(value) });

describe('Planner.revise', () => {
  it('keeps completed steps first and unchanged, and adds the remaining steps', async () => {
    const { model, planner } = setup([
      json({
        title: 'Report v2',
        summary: 'Retry the chart with a table',
        steps: [
          { id: 'table', description: 'Build a table instead', dependsOn: ['load'] },
          { id: 'write', description: 'Write the report', dependsOn: ['table'] },
        ],
      }),
    ]);
    const revised = await planner.revise(plan, {
      reason: 'The chart tool is unavailable',
      task: 'Make a sales report',
      completed: [{ id: 'load', output: '120 rows loaded' }],
      failed: [{ id: 'chart', error: 'chart tool missing' }],
    });
    expect(revised.title).toBe('Report v2');
    expect(revised.steps.map((s) => s.id)).toEqual(['load', 'table', 'write']);
    expect(revised.steps[0]).toBe(plan.steps[0]);
    const request = model.requests[0]!;
    expect(request.system).toContain('- [completed] load: Load sales.csv');
    expect(request.system).toContain('- [failed] chart: Chart sales (after load)');
    expect(request.system).toContain('- [not run] write');
    expect(request.system).toContain('120 rows loaded');
    expect(request.system).toContain('chart tool missing');
    expect(request.system).toContain('The chart tool is unavailable');
    expect(request.messages).toEqual([{ role: 'user', content: 'Task: Make a sales report' }]);
  });

  it('drops a completed step the model repeats unchanged', async () => {
    const { planner } = setup([
      json({
        title: 'R',
        summary: 'S',
        steps: [
          { id: 'load', description: 'Load sales.csv' },
          { id: 'chart', description: 'Chart again', dependsOn: ['load'] },
        ],
      }),
    ]);
    const revised = await planner.revise(plan, { reason: 'retry', completed: [{ id: 'load' }] });
    expect(revised.steps.map((s) => s.id)).toEqual(['load', 'chart']);
  });

  it('re-asks when a completed step is redefined, with the error in the re-ask', async () => {
    const { model, clock, planner } = setup([
      json({ title: 'R', summary: 'S', steps: [{ id: 'load', description: 'Load a different file' }] }),
      json({
        title: 'R',
        summary: 'S',
        steps: [{ id: 'chart2', description: 'Chart', dependsOn: ['load'] }],
      }),
    ]);
    const pending = planner.revise(plan, { reason: 'retry', completed: [{ id: 'load' }] });
    await clock.advance(2500);
    const revised = await pending;
    expect(revised.steps.map((s) => s.id)).toEqual(['load', 'chart2']);
    const reask = model.requests[1]!.messages[2]!;
    expect(reask.role).toBe('user');
    expect(textOf(reask)).toContain('Step "load" is already completed and cannot be redefined');
  });

  it('re-asks a revision whose steps depend on a step that no longer exists', async () => {
    const { model, clock, planner } = setup([
      json({
        title: 'R',
        summary: 'S',
        steps: [{ id: 'write', description: 'Write', dependsOn: ['chart'] }],
      }),
      json({ title: 'R', summary: 'S', steps: [{ id: 'write', description: 'Write', dependsOn: ['load'] }] }),
    ]);
    const pending = planner.revise(plan, { reason: 'drop the chart', completed: [{ id: 'load' }] });
    await clock.advance(2500);
    expect((await pending).steps.map((s) => s.id)).toEqual(['load', 'write']);
    expect(textOf(model.requests[1]!.messages[2]!)).toContain('depends on "chart"');
  });

  it('takes a plain string as the reason and uses the plan summary as the task', async () => {
    const { model, planner } = setup([
      json({ title: 'R', summary: 'S', steps: [{ id: 'x', description: 'Redo all' }] }),
    ]);
    const revised = await planner.revise(plan, 'verification failed: totals wrong');
    expect(revised.steps.map((s) => s.id)).toEqual(['x']);
    expect(model.requests[0]!.system).toContain('verification failed: totals wrong');
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'Task: Write a sales report' }]);
  });

  it('rejects a completed id that is not in the plan, without calling the model', async () => {
    const { model, planner } = setup([]);
    await expect(planner.revise(plan, { reason: 'x', completed: [{ id: 'nope' }] })).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(model.calls).toBe(0);
  });
});
