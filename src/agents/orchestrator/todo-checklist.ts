/**
 * The plan as a markdown checklist (seed 002's todo.md): rendered from step
 * statuses, kept in a pluggable store, rewritten at every step boundary, and
 * injected into each step's request as `[Active Task Context]`.
 * @module
 */
import type { Emitter, PlanStepView } from '../../core/events.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Plan } from '../planner/index.js';
import type { StepRecord } from './dispatch.js';

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
  let out = todoTitle(title);
  steps.forEach((step, i) => {
    out += todoItem(step, i, tools?.get(step.id));
  });
  return out;
}

function todoTitle(title: string): string {
  return `# Task Plan${title ? `: ${title}` : ''}\n`;
}

/** One step's lines: its box, number, description and status, then its tools. */
function todoItem(
  step: Pick<PlanStepView, 'description' | 'status'>,
  index: number,
  tools: readonly string[] | undefined,
): string {
  const mark = step.status === 'completed' ? 'x' : ' ';
  let out = `- [${mark}] Step ${index + 1}: ${step.description}${SUFFIX[step.status] ?? ''}\n`;
  if (tools?.length) out += `  - Tool: ${tools.join(', ')}\n`;
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

/** A rendered part of the checklist, with the items it counts. */
interface Rendered {
  text: string;
  checked: number;
  total: number;
}

/** What a step's lines were rendered from. */
interface RenderedItem extends Rendered {
  index: number;
  status: StepRecord['status'];
  description: string;
  tools: readonly string[] | undefined;
}

/**
 * Writes a run's checklist at each step boundary: renders it from the step
 * records, stores it and emits `todo_update`. A step's lines are rendered
 * (and counted) again only when its status, text or place changed, so a
 * write costs the steps that changed plus joining the rest, not a render
 * and a scan of the whole plan.
 */
export class ChecklistWriter {
  private title: (Rendered & { source: string }) | undefined;
  private readonly items = new WeakMap<StepRecord, RenderedItem>();

  constructor(
    private readonly store: TodoStore,
    private readonly emit: Emitter,
  ) {}

  async write(plan: Plan, order: readonly StepRecord[]): Promise<void> {
    if (this.title?.source !== plan.title)
      this.title = { source: plan.title, ...counted(todoTitle(plan.title)) };
    let content = this.title.text;
    let { checked, total } = this.title;
    for (let i = 0; i < order.length; i++) {
      const item = this.item(order[i]!, i);
      content += item.text;
      checked += item.checked;
      total += item.total;
    }
    try {
      await this.store.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    this.emit.emit('todo_update', { content, checked, total });
  }

  private item(record: StepRecord, index: number): RenderedItem {
    const { status } = record;
    const { description, tools } = record.step;
    const cached = this.items.get(record);
    if (
      cached?.index === index &&
      cached.status === status &&
      cached.description === description &&
      cached.tools === tools
    ) {
      return cached;
    }
    const item = {
      index,
      status,
      description,
      tools,
      ...counted(todoItem({ description, status }, index, tools)),
    };
    this.items.set(record, item);
    return item;
  }
}

/** A part of the checklist with its items counted as {@link todoProgress} counts them in the whole. */
function counted(text: string): Rendered {
  // Every part starts at a line start, so a part's items are the whole checklist's items in it.
  return { text, ...todoProgress(text) };
}
