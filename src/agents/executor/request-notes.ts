/**
 * Per-request notes (repetition, recovery, budget): added to the request
 * that goes out next and never to the stored conversation.
 * @module
 */
import type { Message, ToolMessage, UserMessage } from '../../core/messages.js';

/** The notes of one request. */
export interface RequestNotes {
  /** Repetition, tool-error and rollback notes, joined. */
  text?: string;
  /** The iteration-budget warning; only ever given when the conversation ends with tool results. */
  budget?: string;
}

/** Field names the notes take in a tool result that is a JSON object. */
const JSON_FIELDS = { text: '_note', budget: '_budget_warning' } as const;

/**
 * Adds `notes` to the last message of `messages` for one model call and
 * returns the function that undoes it. The notes go into the last tool result
 * (copying only that message; see {@link notedResult}) or, when the
 * conversation does not end with tool results, into a trailing user message.
 *
 * Why in place instead of copying the array: the conversation only grows, and
 * copying it on every noted turn would make each turn cost O(history). The
 * array is the executor's own and nothing else appends to it during the call;
 * the caller restores it in a `finally` as soon as the call settles. A model
 * that keeps the request must copy `messages` (as `ScriptedModel` does).
 */
export function attachNote(messages: Message[], notes: RequestNotes): () => void {
  const index = messages.length - 1;
  const last = messages[index];
  if (last?.role === 'tool' && last.content.length > 0) {
    const parts = last.content.slice();
    const tail = parts[parts.length - 1]!;
    parts[parts.length - 1] = { ...tail, content: notedResult(tail.content, notes) };
    const noted: ToolMessage = { role: 'tool', content: parts };
    messages[index] = noted;
    return () => {
      if (messages[index] === noted) messages[index] = last;
    };
  }
  const note: UserMessage = { role: 'user', content: joinNotes('', notes) };
  messages.push(note);
  return () => {
    const at = messages.lastIndexOf(note);
    if (at >= 0) messages.splice(at, 1);
  };
}

/**
 * A tool result with the notes added. A result that is a JSON object stays
 * one: each note becomes a field (`_note`, `_budget_warning`) inserted before
 * the closing brace, the tool's own text otherwise untouched (no re-encoding
 * that could change its numbers), and a field the tool already set is left
 * as it is. Any other result gets the notes after a blank line.
 */
export function notedResult(content: string, notes: RequestNotes): string {
  const object = jsonObject(content);
  if (!object) return joinNotes(content, notes);
  let fields = '';
  let empty = Object.keys(object).length === 0;
  for (const key of ['text', 'budget'] as const) {
    const note = notes[key];
    const field = JSON_FIELDS[key];
    if (!note || Object.hasOwn(object, field)) continue;
    fields += `${empty ? '' : ','}${JSON.stringify(field)}:${JSON.stringify(note)}`;
    empty = false;
  }
  const end = content.lastIndexOf('}');
  return `${content.slice(0, end)}${fields}${content.slice(end)}`;
}

function joinNotes(content: string, { text, budget }: RequestNotes): string {
  let out = content;
  for (const note of [text, budget]) if (note) out = out ? `${out}\n\n${note}` : note;
  return out;
}

/** `text` parsed, when it is a JSON object (not an array, not a scalar). */
function jsonObject(text: string): object | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
