/**
 * The cheap first pass of compression: long tool outputs outside the
 * protected tail are replaced by a placeholder. Calls and results stay, so
 * the conversation's shape and pairing do not change.
 * @module
 */
import type { Message, ToolMessage } from '../core/messages.js';

/** Content of a pruned tool output. */
export const PRUNED_TOOL_OUTPUT = '[Old tool output cleared to save context space]';

/**
 * A copy of `messages` where tool results in `[from, to)` longer than
 * `minChars` hold {@link PRUNED_TOOL_OUTPUT}. Unchanged messages are the same
 * objects; changed ones are new. Returns how many results were pruned.
 */
export function pruneToolOutputs(
  messages: readonly Message[],
  from: number,
  to: number,
  minChars: number,
): { messages: Message[]; pruned: number } {
  const out = messages.slice();
  let pruned = 0;
  for (let i = from; i < to; i++) {
    const message = out[i]!;
    if (message.role !== 'tool') continue;
    if (!message.content.some((p) => p.content.length > minChars)) continue;
    const replaced: ToolMessage = {
      role: 'tool',
      content: message.content.map((part) => {
        if (part.content.length <= minChars) return part;
        pruned++;
        return { ...part, content: PRUNED_TOOL_OUTPUT };
      }),
    };
    out[i] = replaced;
  }
  return { messages: out, pruned };
}
