/**
 * Where the protected head ends and the protected tail starts. Every
 * boundary lands on the start of a message group, so a tool call and its
 * results are always on the same side of a cut (bugs B1–B3).
 * @module
 */
import type { Message } from '../core/messages.js';
import { summaryBodyOf } from './summary-prompt.js';
import { groupStartAtOrAfter, groupStartAtOrBefore } from './tool-pairs.js';

/**
 * A conversation being compressed: its messages, the token count of each
 * (same indexes), and where its protected head ends.
 */
export interface CountedMessages {
  readonly messages: readonly Message[];
  readonly counts: readonly number[];
  /** End (exclusive) of the protected head, from {@link findHeadEnd}. */
  readonly headEnd: number;
}

/**
 * End (exclusive) of the head: the first `protectFirst` messages, widened
 * over the results of a call among them, and ended before a summary among
 * them. A conversation resumed from a session starts with the summary of
 * everything before it: that summary is folded into the next one with the
 * turns after it, never kept beside it.
 */
export function findHeadEnd(messages: readonly Message[], protectFirst: number): number {
  const end = groupStartAtOrAfter(messages, Math.min(Math.max(0, protectFirst), messages.length));
  for (let i = 0; i < end; i++) if (summaryBodyOf(messages[i]!) !== undefined) return i;
  return end;
}

/**
 * Start of the tail: walks back from the end collecting messages until the
 * next one would pass `budget` tokens and at least `minMessages` are kept,
 * then widens the tail to the call of a leading result. Never before `headEnd`.
 */
export function findTailStart(conversation: CountedMessages, budget: number, minMessages: number): number {
  const { messages, counts, headEnd } = conversation;
  let start = messages.length;
  let tokens = 0;
  while (start > headEnd) {
    const next = counts[start - 1]!;
    if (messages.length - start >= minMessages && tokens + next > budget) break;
    tokens += next;
    start--;
  }
  return Math.max(headEnd, groupStartAtOrBefore(messages, start));
}

/**
 * Start of the longest contiguous tail that fits `budget` tokens, narrowed
 * so it does not open with results whose call is cut off. The last group is
 * kept even when it alone is over budget: it may hold in-flight tool results.
 */
export function findFittingTailStart(conversation: CountedMessages, budget: number): number {
  const { messages, counts, headEnd } = conversation;
  let start = messages.length;
  let tokens = 0;
  while (start > headEnd && tokens + counts[start - 1]! <= budget) tokens += counts[--start]!;
  start = groupStartAtOrAfter(messages, start);
  if (start >= messages.length && messages.length > headEnd) {
    start = Math.max(headEnd, groupStartAtOrBefore(messages, messages.length - 1));
  }
  return start;
}
