/**
 * Where a summary (or truncation notice) goes between the kept head and
 * tail: its own message when roles can still alternate, else merged into the
 * first tail message, separated from its text by a blank line (seed §46).
 * Tool results count as the user side, as providers that require
 * alternation see them.
 * @module
 */
import type { AssistantMessage, Message } from '../core/messages.js';

type Side = 'user' | 'assistant';

function sideOf(message: Message | undefined): Side | undefined {
  if (!message) return undefined;
  return message.role === 'assistant' ? 'assistant' : 'user';
}

/** The messages kept on either side of a summary or notice. */
export interface KeptEnds {
  readonly head: readonly Message[];
  readonly tail: readonly Message[];
}

/**
 * `head`, then `text` as a message or merged into `tail[0]`, then `tail`.
 * With `alternate` the result never puts two messages of the same side next
 * to each other at the seams, and never starts with an assistant message.
 * `tail[0]` must not be a tool message. Inputs are not modified.
 */
export function placeBetween(kept: KeptEnds, text: string, alternate: boolean): Message[] {
  const { head, tail } = kept;
  const first = tail[0];
  const headSide = sideOf(head.at(-1));
  const tailSide = sideOf(first);
  let role: Side = 'user';
  if (alternate) {
    if (headSide) role = headSide === 'user' ? 'assistant' : 'user';
    else if (tailSide === 'user') role = 'assistant';
  }
  const clash =
    alternate &&
    first !== undefined &&
    first.role !== 'tool' &&
    (role === tailSide || (!headSide && role === 'assistant'));
  if (!clash) {
    const message: Message =
      role === 'user'
        ? { role: 'user', content: text }
        : { role: 'assistant', content: [{ type: 'text', text }] };
    return [...head, message, ...tail];
  }
  return [...head, mergeInto(first as Exclude<Message, { role: 'tool' }>, text), ...tail.slice(1)];
}

// The merged text is its own part, ended by a blank line when text follows: adapters that join text
// parts (OpenAI's chat format takes one string) would otherwise glue it to the original text.
function mergeInto(message: Exclude<Message, { role: 'tool' }>, text: string): Message {
  if (message.role === 'user') {
    if (typeof message.content === 'string')
      return { role: 'user', content: `${text}\n\n${message.content}` };
    return {
      role: 'user',
      content: [{ type: 'text', text: separated(text, message.content) }, ...message.content],
    };
  }
  // Reasoning blocks must stay first in an assistant turn (Anthropic thinking).
  let at = 0;
  while (message.content[at]?.type === 'reasoning') at++;
  const rest = message.content.slice(at);
  const content: AssistantMessage['content'] = [
    ...message.content.slice(0, at),
    { type: 'text', text: separated(text, rest) },
    ...rest,
  ];
  return { role: 'assistant', content };
}

function separated(text: string, following: ReadonlyArray<{ type: string }>): string {
  return following.some((part) => part.type === 'text') ? `${text}\n\n` : text;
}
