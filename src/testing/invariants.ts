/**
 * The event-ordering invariants every run keeps (docs/events.md), as a
 * checker for your own tests: collect a run's events and call
 * `expectInvariants(events)`.
 * @module
 */
import { TandemError } from '../core/errors.js';
import type { TandemEvent } from '../core/events.js';

/** Options of {@link checkInvariants}. */
export interface InvariantOptions {
  /**
   * Whether the events must end with exactly one `complete`/`error`.
   * Default true; false for the events of one execution another agent ran on its own bus (no terminal event).
   */
  terminal?: boolean;
}

/** Thrown by {@link expectInvariants}; the message lists every violation and the event trace. */
export class InvariantError extends TandemError<'violated'> {
  static override readonly brand: string = 'InvariantError';
}

/**
 * Checks a run's events and returns every violation found (empty = valid):
 * - one `runId`, `seq` strictly increasing;
 * - every `tool_call` id is unique and followed by exactly one `tool_result`
 *   with the same id, and no `tool_result` comes without its call;
 * - every `stage` `running` is closed by `completed` or `failed` (same name,
 *   agent and step), and no stage closes without having opened;
 * - exactly one terminal event (`complete` or `error`), and it is the last.
 */
export function checkInvariants(events: readonly TandemEvent[], options: InvariantOptions = {}): string[] {
  const problems: string[] = [];
  const runId = events[0]?.runId;
  let lastSeq = 0;
  const openCalls = new Map<string, number>();
  const seenCalls = new Set<string>();
  const openStages = new Map<string, number>();
  let terminals = 0;
  events.forEach((event, index) => {
    const where = `#${index} ${event.type} (seq ${event.seq})`;
    if (event.runId !== runId) problems.push(`${where}: runId ${event.runId} differs from ${runId}`);
    if (!(event.seq > lastSeq)) problems.push(`${where}: seq not strictly increasing after ${lastSeq}`);
    lastSeq = event.seq;
    if (terminals > 0) problems.push(`${where}: emitted after the terminal event`);
    switch (event.type) {
      case 'tool_call':
        if (seenCalls.has(event.id)) problems.push(`${where}: duplicate tool_call id ${event.id}`);
        seenCalls.add(event.id);
        openCalls.set(event.id, index);
        break;
      case 'tool_result':
        if (!openCalls.has(event.id)) {
          problems.push(
            seenCalls.has(event.id)
              ? `${where}: second tool_result for ${event.id}`
              : `${where}: tool_result ${event.id} without a preceding tool_call`,
          );
        }
        openCalls.delete(event.id);
        break;
      case 'stage': {
        const key = `${event.agent ?? ''}/${event.stepId ?? ''}/${event.name}`;
        const open = openStages.get(key) ?? 0;
        if (event.status === 'running') openStages.set(key, open + 1);
        else if (open === 0) problems.push(`${where}: stage ${key} ${event.status} without running`);
        else openStages.set(key, open - 1);
        break;
      }
      case 'complete':
      case 'error':
        terminals++;
        break;
    }
  });
  for (const [id, index] of openCalls) problems.push(`tool_call ${id} (#${index}) has no tool_result`);
  for (const [key, open] of openStages) if (open > 0) problems.push(`stage ${key} left running`);
  if (options.terminal !== false) {
    if (terminals !== 1) problems.push(`expected exactly one terminal event, got ${terminals}`);
    const last = events[events.length - 1];
    if (last && last.type !== 'complete' && last.type !== 'error')
      problems.push(`last event is ${last.type}`);
  } else if (terminals > 0) {
    problems.push(`expected no terminal event, got ${terminals}`);
  }
  return problems;
}

/**
 * Throws an {@link InvariantError} listing every violation of
 * {@link checkInvariants}, with the run's `seq:type` trace; returns quietly
 * when the events are valid.
 */
export function expectInvariants(events: readonly TandemEvent[], options?: InvariantOptions): void {
  const problems = checkInvariants(events, options);
  if (problems.length > 0) {
    const trace = events.map((e) => `${e.seq}:${e.type}`).join(' ');
    throw new InvariantError(
      'violated',
      `event invariants violated:\n- ${problems.join('\n- ')}\nevents: ${trace}`,
    );
  }
}
