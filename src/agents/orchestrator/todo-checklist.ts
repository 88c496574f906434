/**
 * The plan as a markdown checklist (seed 002's todo.md): rendered from step
 * statuses, kept in a pluggable store, rewritten at every step boundary, and
 * injected into each step's request as `[Active Task Context]`.
 * @module
 */
import type { Emitter, PlanStepView } from '../../core/events.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Plan } from '../planner/index.js';
import { type StepRecord, stepView } from './dispatch.js';

/** Where the checklist lives between updates. */
export interface TodoStore {
  read(): Promise<string | undefined>;
  write(content: string): Promise<void>;
}

/** Cap on what the store keeps and what a read returns (seed: 10 KB). */
export const TODO_STORE_CAP = 10_000;
/** Cap on the checklist injected into a step's request (seed: 2000 chars). */
export const TODO_CONTEXT_CAP = 2_000;

/** Keeps the checklist in memory (the default). */
export class MemoryTodoStore implements TodoStore {
  private content: string | undefined;
  async read(): Promise<string | undefined> {
    return this.content;
  }
  async write(content: string): Promise<void> {
    this.content = content.slice(0, TODO_STORE_CAP);
  }
}

/** Keeps the checklist in a file of a sandbox (default `.tandem/todo.md`), where the agent's tools can read it too. */
export class SandboxTodoStore implements TodoStore {
  constructor(
    private readonly sandbox: Sandbox,
    readonly path = '.tandem/todo.md',
  ) {}
  async read(): Promise<string | undefined> {
    try {
      const text = await this.sandbox.readFile(this.path);
      return text.length > TODO_STORE_CAP ? `${text.slice(0, TODO_STORE_CAP)}\n... [truncated]` : text;
    } catch {
      return undefined;
    }
  }
  async write(content: string): Promise<void> {
    await this.sandbox.writeFile(this.path, content.slice(0, TODO_STORE_CAP));
  }
}

const SUFFIX: Partial<Record<PlanStepView['status'], string>> = {
  running: ' (in progress)',
  failed: ' (failed)',
  skipped: ' (skipped)',
};

/** The checklist: `# Task Plan` then `- [x] Step n: …` per step, with its suggested tools. */
export function renderTodo(
  title: string,
  steps: readonly PlanStepView[],
  tools?: ReadonlyMap<string, string[]>,
): string {
  let out = `# Task Plan${title ? `: ${title}` : ''}\n`;
  steps.forEach((step, i) => {
    const mark = step.status === 'completed' ? 'x' : ' ';
    out += `- [${mark}] Step ${i + 1}: ${step.description}${SUFFIX[step.status] ?? ''}\n`;
    const hint = tools?.get(step.id);
    if (hint?.length) out += `  - Tool: ${hint.join(', ')}\n`;
  });
  return out;
}

/** Checked and total items of a checklist. */
export function todoProgress(content: string): { checked: number; total: number } {
  const checked = content.match(/^- \[x\]/gm)?.length ?? 0;
  const open = content.match(/^- \[ \]/gm)?.length ?? 0;
  return { checked, total: checked + open };
}

/** The checklist as a step's request shows it, capped. */
export function activeTaskContext(content: string, cap = TODO_CONTEXT_CAP): string {
  const body = content.length > cap ? `${content.slice(0, cap)}\n... [truncated]` : content;
  return `[Active Task Context]\n${body}`;
}

/** The run's checklist store: `todoStore`, else a file in `sandbox`, else memory. */
export function checklistStore(options: { todoStore?: TodoStore; sandbox?: Sandbox }): TodoStore {
  return (
    options.todoStore ?? (options.sandbox ? new SandboxTodoStore(options.sandbox) : new MemoryTodoStore())
  );
}

/** Renders the plan's checklist from its step records, stores it and emits `todo_update`. */
export async function writeChecklist(
  store: TodoStore,
  emit: Emitter,
  plan: Plan,
  order: readonly StepRecord[],
): Promise<void> {
  const views: PlanStepView[] = order.map(stepView);
  const content = renderTodo(plan.title, views, new Map(order.map((r) => [r.step.id, r.step.tools])));
  try {
    await store.write(content);
  } catch {
    // A checklist that cannot be saved must not fail the run; the event still carries it.
  }
  emit.emit('todo_update', { content, ...todoProgress(content) });
}
