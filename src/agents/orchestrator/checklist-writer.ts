/**
 * Writes a run's checklist at each step boundary: renders it from the step
 * records, stores it and emits `todo_update`. A write costs the steps that
 * changed, not a render of the whole plan: a step's lines are rendered
 * (and counted) again only when its status, step or place changed,
 * and when one step changed — a step starting or ending — its lines are
 * spliced into the last checklist, whose counts move by the difference.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Plan } from '../planner/index.js';
import type { StepRecord } from './dispatch.js';
import { type TodoStore, todoItem, todoProgress, todoTitle } from './todo-checklist.js';

/** A part of the checklist, with the items it counts. */
interface Rendered {
  text: string;
  checked: number;
  total: number;
}

/** A step's lines as last rendered, and what they were rendered from (plan steps are values: a new text is a new step). */
interface RenderedItem extends Rendered {
  record: StepRecord;
  step: StepRecord['step'];
  status: StepRecord['status'];
  /** Whether the description or tools break lines, so the lines may hold more items than the step's own. */
  multiline: boolean;
}

/** Writes one run's checklist; see the module docs. */
export class ChecklistWriter {
  private title: (Rendered & { source: string }) | undefined;
  /** The steps' lines by place in the plan, as in {@link ChecklistWriter.last}. */
  private readonly items: RenderedItem[] = [];
  private last: Rendered = { text: '', checked: 0, total: 0 };

  constructor(
    private readonly store: TodoStore,
    private readonly emit: Emitter,
  ) {}

  /** Stores and emits the checklist of `plan` as its step records stand now. */
  async write(plan: Plan, order: readonly StepRecord[]): Promise<void> {
    const { text: content, checked, total } = this.render(plan, order);
    try {
      await this.store.write(content);
    } catch {
      // A checklist that cannot be saved must not fail the run; the event still carries it.
    }
    this.emit.emit('todo_update', { content, checked, total });
  }

  /** The checklist as of now; see the module docs. */
  private render(plan: Plan, order: readonly StepRecord[]): Rendered {
    if (this.title?.source !== plan.title || this.items.length !== order.length)
      return this.renderAll(plan, order);
    let changed: { index: number; was: RenderedItem; offset: number } | undefined;
    let offset = this.title.text.length;
    for (let i = 0; i < order.length; i++) {
      const was = this.items[i]!;
      const item = this.item(order[i]!, i);
      if (item !== was) {
        if (changed) return this.renderAll(plan, order);
        changed = { index: i, was, offset };
      }
      offset += item.text.length;
    }
    if (changed) this.last = splice(this.last, changed.offset, changed.was, this.items[changed.index]!);
    return this.last;
  }

  /** The whole checklist from the items, rendered again where they changed. */
  private renderAll(plan: Plan, order: readonly StepRecord[]): Rendered {
    if (this.title?.source !== plan.title) {
      const text = todoTitle(plan.title);
      this.title = { source: plan.title, text, ...itemsIn(text, breaksLines(plan.title), NO_ITEM) };
    }
    let { text, checked, total } = this.title;
    for (let i = 0; i < order.length; i++) {
      const item = this.item(order[i]!, i);
      text += item.text;
      checked += item.checked;
      total += item.total;
    }
    this.items.length = order.length;
    this.last = { text, checked, total };
    return this.last;
  }

  /** The lines of `record`, at `index`: the cached ones while they still hold. */
  private item(record: StepRecord, index: number): RenderedItem {
    const { step, status } = record;
    const cached = this.items[index];
    const same = cached?.record === record && cached.step === step;
    if (same && cached.status === status) return cached;
    const { description, tools } = step;
    const multiline = same ? cached.multiline : breaksLines(description, tools);
    const text = todoItem({ description, status }, index, tools);
    const { checked, total } = itemsIn(text, multiline, status === 'completed' ? CHECKED : OPEN);
    const item = { record, step, status, multiline, text, checked, total };
    this.items[index] = item;
    return item;
  }
}

/** `checklist` with one step's lines, at `offset`, replaced. */
function splice(checklist: Rendered, offset: number, was: Rendered, now: Rendered): Rendered {
  const { text } = checklist;
  return {
    // Slices of a flat string share its characters: the new checklist costs one copy, not a join of every step.
    text: text.slice(0, offset) + now.text + text.slice(offset + was.text.length),
    checked: checklist.checked - was.checked + now.checked,
    total: checklist.total - was.total + now.total,
  };
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Whether some text breaks lines: only then can it hold a line {@link todoProgress} counts but its own. */
function breaksLines(text: string, more?: readonly string[]): boolean {
  return LINE_BREAK.test(text) || (more?.some((t) => LINE_BREAK.test(t)) ?? false);
}

type Items = Omit<Rendered, 'text'>;
const NO_ITEM: Items = { checked: 0, total: 0 };
const OPEN: Items = { checked: 0, total: 1 };
const CHECKED: Items = { checked: 1, total: 1 };

/**
 * The items of a part of the checklist as {@link todoProgress} counts them in
 * the whole: every part starts at a line start, so a part's items are the
 * whole checklist's items in it. A part without inner line breaks holds at
 * most the item it starts with: `own`, known without reading the text.
 */
function itemsIn(text: string, multiline: boolean, own: Items): Items {
  return multiline ? todoProgress(text) : own;
}
