/**
 * What a run takes as its input — a string, content parts (text, images,
 * files) or messages — and the ids that place it; and the views of that
 * input the components of a run need: messages for a model, the user's
 * latest message apart from the conversation before it, and text for the
 * components that read only text.
 * @module
 */
import { ConfigError } from './errors.js';
import { describeMedia, isMediaPart, mediaPartProblem } from './media.js';
import type { MediaPart, Message, TextPart, UserMessage } from './messages.js';

/** What a user says in one message: text, or parts (text, images, files) in order. */
export type UserContent = string | Array<TextPart | MediaPart>;

/**
 * The input of `run()`: the user's message as a string or as content parts,
 * or messages (then the conversation continues from the last of them).
 */
export type RunInput = UserContent | Message[];

/**
 * Ids of a run and of the conversation it belongs to. `resourceId` (the user
 * or other owner) and `threadId` (the conversation) are carried on the
 * `run_started` event and in the saved state, for the host app and for
 * session stores to file the run under; an agent with `memory` reads and
 * writes the long-term memory of `resourceId` (docs/memory.md).
 */
export interface RunIds {
  /** The run's id, used on every event and in the saved state. Default: a new id. */
  runId?: string;
  /** Who the conversation belongs to (a user, an account). */
  resourceId?: string;
  /** The conversation the run continues. */
  threadId?: string;
}

/** A run's input, split: the conversation before the user's latest message, and that message's content. */
export interface SplitInput {
  history: Message[];
  content: UserContent;
}

/**
 * `input` as the messages that follow the history.
 * @throws ConfigError for an array mixing parts and messages, or an invalid part.
 */
export function inputMessages(input: RunInput): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (isMessages(input)) return input;
  return [{ role: 'user', content: input }];
}

/**
 * The user's latest message apart from the conversation before it: the
 * input's own message, or the last message when the input is messages
 * (which must then end with a user message).
 * @throws ConfigError for messages that do not end with a user message.
 */
export function splitInput(input: RunInput, history: readonly Message[] = []): SplitInput {
  if (typeof input === 'string' || !isMessages(input)) return { history: history.slice(), content: input };
  const last = input[input.length - 1];
  if (last?.role !== 'user') {
    throw new ConfigError(
      `run: input messages must end with a user message (the request), got ${last ? `a ${last.role} message` : 'none'}`,
    );
  }
  return { history: [...history, ...input.slice(0, -1)], content: last.content };
}

/** The text of a message's content, with a placeholder such as `[image: image/png, 4033 bytes]` for each image or file. */
export function contentText(content: UserContent): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) texts.push(part.type === 'text' ? part.text : describeMedia(part));
  return texts.join('\n');
}

/** The text of a message's content alone, its images and files left out. */
export function wordsOf(content: UserContent): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

/** The images and files of a message's content, in order. */
export function contentMedia(content: UserContent): MediaPart[] {
  return typeof content === 'string' ? [] : content.filter((part) => part.type !== 'text');
}

/**
 * A user message of `content` with `prefix` before its text and `suffix`
 * after it; its images and files stay where they were among the text.
 */
export function framedMessage(content: UserContent, prefix: string, suffix = ''): UserMessage {
  if (typeof content === 'string') return { role: 'user', content: `${prefix}${content}${suffix}` };
  const parts: Array<TextPart | MediaPart> = [];
  if (prefix) parts.push({ type: 'text', text: prefix });
  parts.push(...content);
  if (suffix) parts.push({ type: 'text', text: suffix });
  return { role: 'user', content: parts };
}

/**
 * The conversation as a component that plans, routes or judges reads it:
 * what the user said (text, images, files) and what the assistant answered
 * (text). Tool calls, tool results and reasoning are left out: such a
 * component offers no tools, and providers refuse tool messages without them.
 */
export function conversationView(messages: readonly Message[] | undefined): Message[] {
  const view: Message[] = [];
  for (const message of messages ?? []) {
    if (message.role === 'user') view.push(message);
    else if (message.role === 'assistant') {
      const text = message.content.filter((part): part is TextPart => part.type === 'text');
      if (text.some((part) => part.text.trim())) view.push({ role: 'assistant', content: text });
    }
  }
  return view;
}

/** Messages, told apart from parts by their `role`. @throws ConfigError for a mix, or an invalid part. */
function isMessages(input: readonly (Message | TextPart | MediaPart)[]): input is Message[] {
  let messages = 0;
  for (const item of input) {
    if (typeof item === 'object' && item !== null && 'role' in item) messages++;
    else checkPart(item);
  }
  if (messages > 0 && messages < input.length) {
    throw new ConfigError('run: input must be content parts or messages, not a mix of both');
  }
  return messages === input.length;
}

function checkPart(part: unknown): void {
  const type = (part as { type?: unknown } | null)?.type;
  if (type === 'text') {
    if (typeof (part as TextPart).text !== 'string') throw new ConfigError('run: a text part needs `text`');
    return;
  }
  const problem = isMediaPart({ type: String(type) })
    ? mediaPartProblem(part)
    : `unknown part type ${JSON.stringify(type)}`;
  if (problem) throw new ConfigError(`run: invalid input part: ${problem}`);
}
