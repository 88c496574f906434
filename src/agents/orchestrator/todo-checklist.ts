/**
 * The plan as a markdown checklist (seed 002's todo.md): rendered from step
 * statuses, kept in a pluggable store, rewritten at every step boundary
 * (`checklist-writer.ts`), and injected into each step's request as
 * `[Active Task Context]`.
 * @module
 */
import type { PlanStepView } from '../../core/events.js';
import type { Sandbox } from '../../core/sandbox.js';

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

/** The checklist's first line. */
export function todoTitle(title: string): string {
  return `# Task Plan${title ? `: ${title}` : ''}\n`;
}

/** One step's lines: its box, number, description and status, then its tools. */
export function todoItem(
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
