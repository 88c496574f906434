/**
 * Writes a run's checklist at each step boundary: renders it from the step
 * records, stores it and emits `todo_update` with its counts. A render is a
 * line or two per step, done a few times per step: plain string building.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Plan } from '../planner/index.js';
import type { StepRecord } from './dispatch.js';
import { type TodoStore, todoItem, todoProgress, todoTitle } from './todo-checklist.js';

/** Writes one run's checklist; see the module docs. */
export class ChecklistWriter {
  constructor(
    private readonly store: TodoStore,
    private readonly emit: Emitter,
  ) {}

  /** Stores and emits the checklist of `plan` as its step records stand now. */
  async write(plan: Plan, order: readonly StepRecord[]): Promise<void> {
    const content = renderChecklist(plan, order);
    try {
      await this.store.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    this.emit.emit('todo_update', { content, ...todoProgress(content) });
  }
}

/** The checklist of `plan`: its title, then each step's lines with its status and tools. */
function renderChecklist(plan: Plan, order: readonly StepRecord[]): string {
  let content = todoTitle(plan.title);
  order.forEach(({ step, status }, index) => {
    content += todoItem({ description: step.description, status }, index, step.tools);
  });
  return content;
}
