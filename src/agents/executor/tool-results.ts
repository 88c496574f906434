/**
 * How tool outcomes enter the conversation and, when the model ends without
 * text, the answer.
 * @module
 */
import {
  type Message,
  type ToolCallPart,
  type ToolMessage,
  type ToolResultPart,
  toolCallsOf,
} from '../../core/messages.js';
import type { ToolOutcome } from '../../tools/runner.js';

/** The tool message answering one turn's calls, in call order. */
export function toolMessage(outcomes: readonly ToolOutcome[]): ToolMessage {
  const content: ToolMessage['content'] = new Array(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    const part: ToolResultPart = {
      type: 'tool_result',
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      content: o.content,
      isError: o.isError,
    };
    if (o.attachments) part.attachments = o.attachments;
    content[i] = part;
  }
  return { role: 'tool', content };
}

/**
 * The results of one model turn's calls as they come in — recorded by an
 * earlier run, or settled now — kept in call order, so a turn whose calls
 * settle one by one can be checkpointed (and later completed) at any point.
 */
export class BatchResults {
  private readonly slots: (ToolOutcome | undefined)[];
  private filled = 0;

  /** @param ids The turn's call ids, in call order. */
  constructor(private readonly ids: readonly string[]) {
    this.slots = new Array(ids.length);
  }

  /**
   * Takes the results a saved conversation recorded for these calls. False
   * when one of them answers no call of the turn: that message is not this
   * turn's results, and this object is then to be discarded.
   */
  restore(parts: readonly ToolResultPart[]): boolean {
    return parts.every((part) => this.add(recordedOutcome(part)));
  }

  /** Records `outcome` for the first unanswered call with its id; false when there is none. */
  add(outcome: ToolOutcome): boolean {
    for (let i = 0; i < this.ids.length; i++) {
      if (this.ids[i] !== outcome.toolCallId || this.slots[i]) continue;
      this.slots[i] = outcome;
      this.filled++;
      return true;
    }
    return false;
  }

  /** Whether the call at `index` has its result. */
  answered(index: number): boolean {
    return this.slots[index] !== undefined;
  }

  /** Results held so far. */
  get size(): number {
    return this.filled;
  }

  /** Every call has its result. */
  get complete(): boolean {
    return this.filled === this.ids.length;
  }

  /** The results so far, in call order. */
  outcomes(): ToolOutcome[] {
    return this.slots.filter((o): o is ToolOutcome => o !== undefined);
  }

  /** The tool message holding the results so far, in call order. */
  message(): ToolMessage {
    return toolMessage(this.outcomes());
  }
}

/** Tool calls a resumed conversation left without results, and where their tool message goes. */
export interface PendingBatch {
  /** Every call of the last model turn, in call order. */
  calls: ToolCallPart[];
  /** The results already recorded for some of them. */
  results: BatchResults;
  /** Index of the turn's tool message: the recorded one it completes, or the end. */
  at: number;
}

/**
 * The calls of a conversation's last model turn that have no result: all of
 * them when the turn ends the conversation, the rest when a tool message
 * answering only some of them follows it (a batch cut short by a pause or a
 * crash). `undefined` when nothing is pending.
 */
export function pendingBatch(messages: readonly Message[]): PendingBatch | undefined {
  let at = messages.length;
  const recorded = messages[at - 1]?.role === 'tool' ? (messages[--at] as ToolMessage) : undefined;
  const turn = messages[at - 1];
  if (turn?.role !== 'assistant') return undefined;
  const calls = toolCallsOf(turn);
  if (calls.length === 0) return undefined;
  const results = new BatchResults(calls.map((c) => c.id));
  if (recorded && (!results.restore(recorded.content) || results.complete)) return undefined;
  return { calls, results, at };
}

/** A result read back from a saved conversation, as an outcome (its full output is the recorded text). */
function recordedOutcome(part: ToolResultPart): ToolOutcome {
  const outcome: ToolOutcome = {
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: part.content,
    content: part.content,
    isError: part.isError ?? false,
    truncated: false,
    durationMs: 0,
  };
  if (part.attachments) outcome.attachments = part.attachments;
  return outcome;
}

/** The answer of a model that ended without text: its last tool results (the successful ones, if any). */
export function toolOnlyOutput(outcomes: readonly ToolOutcome[]): string {
  const ok = outcomes.filter((o) => !o.isError);
  const shown = ok.length > 0 ? ok : outcomes;
  if (shown.length === 1) return shown[0]!.output;
  return shown.map((o) => `${o.toolName}: ${o.output}`).join('\n\n');
}
