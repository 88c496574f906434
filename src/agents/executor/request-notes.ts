/**
 * Per-request notes (repetition, recovery, budget): added to the request
 * that goes out next and never to the stored conversation.
 * @module
 */
import type { Message, ToolMessage, UserMessage } from '../../core/messages.js';
import type { CompressHook } from '../../model/invoke.js';
import type { ModelRequest } from '../../model/types.js';

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
 * One call's notes, attached to the request as it leaves — after the context
 * manager, so a compaction is made of (and remembered by) the conversation
 * itself: a note in it would be carried into later requests, and a noted copy
 * of the last message would not match the conversation on the next turn, so
 * the compaction would be forgotten and made again from scratch.
 */
export class TurnNotes {
  private undo: (() => void) | undefined;
  /** Noted copies of message arrays, each to the array it was copied from. */
  private readonly originals = new WeakMap<readonly Message[], Message[]>();

  constructor(
    private readonly conversation: Message[],
    private readonly notes: RequestNotes,
  ) {}

  /**
   * `request` with the notes. On the conversation itself they are attached in
   * place ({@link attachNote}: no copy of the history) until {@link TurnNotes.detach};
   * any other message array (a compacted one the context manager owns) is
   * copied, never changed.
   */
  attach(request: ModelRequest): ModelRequest {
    if (request.messages === this.conversation) {
      this.undo ??= attachNote(this.conversation, this.notes);
      return request;
    }
    const messages = request.messages.slice();
    attachNote(messages, this.notes);
    this.originals.set(messages, request.messages);
    return { ...request, messages };
  }

  /** Removes the notes from the conversation. */
  detach(): void {
    this.undo?.();
    this.undo = undefined;
  }

  /**
   * `hook` given the request without the notes and its result given them:
   * a recovery compaction is remembered as well, so it too must be made of
   * the conversation itself.
   */
  around(hook: CompressHook | undefined): CompressHook | undefined {
    if (!hook) return undefined;
    return async (request, info) => {
      const smaller = await hook(this.without(request), info);
      return smaller && this.attach(smaller);
    };
  }

  private without(request: ModelRequest): ModelRequest {
    if (request.messages === this.conversation) {
      this.detach();
      return request;
    }
    const original = this.originals.get(request.messages);
    return original ? { ...request, messages: original } : request;
  }
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
