/** The checklist writer: the checklist and counts of a render of the whole plan, written at each step boundary. */
import { describe, expect, it } from 'vitest';
import { ChecklistWriter } from '../../src/agents/orchestrator/checklist-writer.js';
import { type StepRecord, stepView } from '../../src/agents/orchestrator/dispatch.js';
import { MemoryTodoStore, renderTodo, todoProgress } from '../../src/agents/orchestrator/todo-checklist.js';
import type { Plan, PlanStep } from '../../src/agents/planner/index.js';
import type { EventPayloads } from '../../src/core/events.js';

function step(id: string, description = `do ${id}`, tools = ['add']): PlanStep {
  return { id, description, expectedOutput: '', tools, expectedFiles: [], risk: 'safe', dependsOn: [] };
}

function record(s: PlanStep): StepRecord {
  return { step: s, status: 'pending', output: '', attempts: 0 };
}

function writer() {
  const store = new MemoryTodoStore();
  const updates: EventPayloads['todo_update'][] = [];
  const emit = {
    runId: 'run_1',
    emit: (type: string, payload: any) => {
      if (type === 'todo_update') updates.push(payload);
    },
    scope: () => emit,
    backpressure: () => undefined,
  };
  return { store, updates, writer: new ChecklistWriter(store, emit as any) };
}

/** What a render of the whole plan gives. */
function rendered(plan: Plan, order: readonly StepRecord[]) {
  const tools = new Map(order.map((r) => [r.step.id, r.step.tools]));
  const content = renderTodo(plan.title, order.map(stepView), tools);
  return { content, ...todoProgress(content) };
}

describe('ChecklistWriter', () => {
  it('writes and emits what a render of the whole plan gives, through single and multiple changes, re-plans and a new title', async () => {
    const { store, updates, writer: w } = writer();
    const steps = [step('s1'), step('s2', 'list\n- [x] not a step of ours', []), step('s3'), step('s4')];
    let plan: Plan = { title: 'Plan', summary: 'sum', steps };
    let order = steps.map(record);
    const expectWritten = async () => {
      await w.write(plan, order);
      const want = rendered(plan, order);
      expect(updates.at(-1)).toEqual(want);
      expect(await store.read()).toBe(want.content);
    };
    await expectWritten();
    order[0]!.status = 'running';
    await expectWritten();
    order[0]!.status = 'completed';
    await expectWritten();
    order[1]!.status = 'completed';
    order[2]!.status = 'failed';
    await expectWritten();
    await expectWritten();
    order[3]!.status = 'skipped';
    await expectWritten();
    order = [order[0]!, order[1]!, record(step('s3', 'do s3 again')), order[3]!, record(step('s5'))];
    plan = { ...plan, steps: order.map((r) => r.step) };
    await expectWritten();
    order.splice(2, 1);
    await expectWritten();
    plan = { ...plan, title: 'Revised\n- [ ] a title line' };
    await expectWritten();
    expect(updates.at(-1)).toMatchObject({ checked: 3, total: 6 });
  });
});
