/**
 * The cheap first pass of compression: long tool outputs, and the images and
 * files of tool results, outside the protected tail are replaced by
 * placeholders. Calls and results stay, so the conversation's shape and
 * pairing do not change.
 * @module
 */
import { describeMedia } from '../core/media.js';
import type { Message, ToolMessage, ToolResultPart } from '../core/messages.js';

/** Content of a pruned tool output. */
export const PRUNED_TOOL_OUTPUT = '[Old tool output cleared to save context space]';

/** Indexes `[from, to)` of a message list. */
export interface MessageRange {
  readonly from: number;
  readonly to: number;
}

/**
 * A copy of `messages` where tool results in `[range.from, range.to)` longer than
 * `minChars` hold {@link PRUNED_TOOL_OUTPUT}, and results with attachments
 * lose them for placeholders naming each (media type, filename, size) at the
 * end of their text. Unchanged messages are the same objects; changed ones
 * are new. Returns how many results were pruned.
 */
export function pruneToolOutputs(
  messages: readonly Message[],
  range: MessageRange,
  minChars: number,
): { messages: Message[]; pruned: number } {
  const { from, to } = range;
  const out = messages.slice();
  let pruned = 0;
  const prunable = (part: ToolResultPart) => part.content.length > minChars || !!part.attachments?.length;
  for (let i = from; i < to; i++) {
    const message = out[i]!;
    if (message.role !== 'tool') continue;
    if (!message.content.some(prunable)) continue;
    const replaced: ToolMessage = {
      role: 'tool',
      content: message.content.map((part) => {
        if (!prunable(part)) return part;
        pruned++;
        return prunedResult(part, minChars);
      }),
    };
    out[i] = replaced;
  }
  return { messages: out, pruned };
}

function prunedResult(part: ToolResultPart, minChars: number): ToolResultPart {
  const { attachments, ...rest } = part;
  const text = part.content.length > minChars ? PRUNED_TOOL_OUTPUT : part.content;
  const placeholders = (attachments ?? []).map(describeMedia);
  return { ...rest, content: [text, ...placeholders].filter((line) => line).join('\n') };
}
