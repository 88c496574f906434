/**
 * Per-request notes (repetition, recovery, budget): added to the request
 * that goes out next and never to the stored conversation.
 * @module
 */
import type { Message, ToolMessage, UserMessage } from '../core/messages.js';

/**
 * Adds `text` to the last message of `messages` for one model call and
 * returns the function that undoes it. The note goes after the last tool
 * result (copying only that message) or, when the conversation does not end
 * with tool results, into a trailing user message.
 *
 * Why in place instead of copying the array: the conversation only grows, and
 * copying it on every noted turn would make each turn cost O(history). The
 * array is the executor's own and nothing else appends to it during the call;
 * the caller restores it in a `finally` as soon as the call settles. A model
 * that keeps the request must copy `messages` (as `ScriptedModel` does).
 */
export function attachNote(messages: Message[], text: string): () => void {
  const index = messages.length - 1;
  const last = messages[index];
  if (last?.role === 'tool' && last.content.length > 0) {
    const parts = last.content.slice();
    const tail = parts[parts.length - 1]!;
    parts[parts.length - 1] = { ...tail, content: tail.content ? `${tail.content}\n\n${text}` : text };
    const noted: ToolMessage = { role: 'tool', content: parts };
    messages[index] = noted;
    return () => {
      if (messages[index] === noted) messages[index] = last;
    };
  }
  const note: UserMessage = { role: 'user', content: text };
  messages.push(note);
  return () => {
    const at = messages.lastIndexOf(note);
    if (at >= 0) messages.splice(at, 1);
  };
}
