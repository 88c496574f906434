/**
 * The request of an orchestration as its phases read it: the user's latest
 * message (as given, and as text) and the conversation before it, from the
 * run's state — so a resumed run sees the same conversation as the first.
 * @module
 */
import { mediaBase64 } from '../../core/media.js';
import type { MediaPart, Message, TextPart, UserMessage } from '../../core/messages.js';
import { contentMedia, conversationView, type UserContent } from '../../core/run-input.js';
import type { RunState } from '../../state/run-state.js';

/** What the run was asked, in the conversation it continues. */
export interface RunRequest {
  /** The request as text (images and files as placeholders): for components that read only text. */
  text: string;
  /** The request as given: text, or parts with images and files. */
  content: UserContent;
  /** The conversation before the request, as given. Not modified. */
  history: Message[];
}

/** The request recorded in `state`. */
export function requestOf(state: RunState): RunRequest {
  return { text: state.task, content: state.input ?? state.task, history: state.history ?? [] };
}

/**
 * The request as a plan step starts from it: the earlier user and assistant
 * messages, then the user's message with its images and files. Tool calls and
 * results of earlier turns are left out: the step's tools are not theirs.
 * `undefined` for a request that is text alone, with no history: the step's
 * system prompt quotes it, and its conversation starts with its instruction.
 * Bytes are base64 text, so a step job stays plain JSON on its way to a worker.
 */
export function requestConversation(request: RunRequest): Message[] | undefined {
  const { history, content } = request;
  if (history.length === 0 && contentMedia(content).length === 0) return undefined;
  const messages = [...conversationView(history), { role: 'user', content } as const];
  return messages.map((message) => (message.role === 'user' ? plainUser(message) : message));
}

/** `message` with the bytes of its images and files as base64 text (the message itself when it has none). */
function plainUser(message: UserMessage): UserMessage {
  const { content } = message;
  if (typeof content === 'string' || !content.some(hasBytes)) return message;
  const parts = content.map((part) => (hasBytes(part) ? { ...part, data: mediaBase64(part.data) } : part));
  return { role: 'user', content: parts };
}

function hasBytes(part: TextPart | MediaPart): part is MediaPart & { data: Uint8Array } {
  return part.type !== 'text' && part.data instanceof Uint8Array;
}
