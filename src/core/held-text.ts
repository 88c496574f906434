/**
 * What a run with output guardrails holds back from its listeners until the
 * guardrails have checked it: the streamed text of the answer (`token`), the
 * model's reasoning (`reasoning`) and the structured answer so far
 * (`partial_object`). A delta cannot be checked alone — an address split
 * across two deltas matches no rule — so deltas are held whole: tokens and
 * partial objects are replaced by the checked answer, reasoning is kept to be
 * checked and released as one event per emitter.
 * @module
 */
import type { EventPayloads, EventTags, EventType } from './events.js';

/** Reasoning one emitter (an agent, a step) streamed while held, joined. */
export interface HeldReasoning {
  text: string;
  /** The emitter's tags (its agent, step…), given back on release. */
  tags?: EventTags;
}

/** What replaces the held events once the guardrails have checked the answer. */
export interface HeldRelease {
  /** The answer as the guardrails left it: one `token` event (none when empty). */
  text: string;
  /** Tags of the `token` (and `partial_object`) event, e.g. the answering agent. */
  tags?: EventTags;
  /** The reasoning to deliver, checked (see {@link EventBus.heldReasoning}): one `reasoning` event each, first. */
  reasoning?: readonly HeldReasoning[];
  /** The structured answer as checked: one `partial_object` event, for UIs that render the object as it streams. */
  object?: unknown;
}

/** The held events of one run. */
export class HeldText {
  readonly reasoning: HeldReasoning[] = [];
  private lastKey: string | undefined;

  /** True when the event is held (and so not delivered now). */
  take(type: EventType, payload: EventPayloads[EventType], tags: EventTags | undefined): boolean {
    if (type === 'token' || type === 'partial_object') return true;
    if (type !== 'reasoning') return false;
    const { delta } = payload as EventPayloads['reasoning'];
    // Consecutive deltas of one emitter are one text; another emitter's start a new one.
    const key = tags ? JSON.stringify(tags) : '';
    const last = this.reasoning[this.reasoning.length - 1];
    if (last && key === this.lastKey) last.text += delta;
    else this.reasoning.push(tags ? { text: delta, tags } : { text: delta });
    this.lastKey = key;
    return true;
  }
}
