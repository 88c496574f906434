import { describe, expect, it } from 'vitest';
import { SUMMARY_END, SUMMARY_PREFIX } from '../../src/context/index.js';
import { ContextCompressor, type Message, type ModelRequest, textOf } from '../../src/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { assistant, call, fakeSummarizer, result, user } from './helpers.js';

/** Head, a long middle, then a tail that opens with `tail[0]`: where roles must alternate, the summary merges into it. */
function conversation(tail: Message[]): Message[] {
  return [
    user('task'),
    assistant('a'),
    user('b'),
    ...Array.from({ length: 40 }, (_, i) => [
      assistant(`a${i} ${'z'.repeat(200)}`),
      user(`u${i} ${'z'.repeat(200)}`),
    ]).flat(),
    ...tail,
  ];
}

/** The first tail message after compression; `protectFirst: 2` ends the head on the assistant side. */
async function merged(tail: Message[], protectFirst = 3): Promise<Message> {
  const out = await new ContextCompressor({
    summarizer: fakeSummarizer(),
    contextWindow: 4000,
    minTailMessages: 2,
    tailTokens: 10,
    protectFirst,
  }).compress({ messages: conversation(tail) });
  expect(out.method).toBe('summary');
  expect(out.messages).toHaveLength(protectFirst + tail.length);
  return out.messages[protectFirst]!;
}

const SUMMARY = `${SUMMARY_PREFIX}\n\nSUMMARY\n\n${SUMMARY_END}`;

// What an OpenAI-compatible server receives: the chat adapter joins a message's text parts into one string.
async function wireContent(message: Message): Promise<unknown> {
  let body: { messages: Array<{ content: unknown }> } | undefined;
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    body = JSON.parse(String(init?.body));
    const reply = {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    return new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } });
  };
  const request: ModelRequest = {
    messages: message.role === 'user' ? [message] : [user('q'), message],
  };
  await createOpenAI({ apiKey: 'k', baseURL: 'http://localhost/v1', fetch })('m').generate(request);
  return body!.messages.at(-1)!.content;
}

describe('a summary merged into a message is separated from its text by a blank line', () => {
  it('in an assistant message, also once the adapter joins its text parts', async () => {
    const message = await merged([assistant('tail start'), user('tail end')]);
    expect(message.role).toBe('assistant');
    expect(textOf(message)).toBe(`${SUMMARY}\n\ntail start`);
    expect(await wireContent(message)).toBe(`${SUMMARY}\n\ntail start`);
  });

  it('after reasoning blocks, which stay first', async () => {
    const message = await merged([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', signature: 'sig' },
          { type: 'text', text: 'tail start' },
        ],
      },
      user('tail end'),
    ]);
    expect(message.role === 'assistant' && message.content[0]!.type).toBe('reasoning');
    expect(textOf(message)).toBe(`${SUMMARY}\n\ntail start`);
  });

  it('without a trailing blank line when no text follows (a turn of tool calls only)', async () => {
    const message = await merged([call('c1'), result('c1', 'r'), user('tail end')]);
    expect(textOf(message)).toBe(SUMMARY);
  });

  it('in a user message given as text parts, also once the adapter joins them', async () => {
    const message = await merged(
      [{ role: 'user', content: [{ type: 'text', text: 'tail start' }] }, assistant('tail end')],
      2,
    );
    expect(message.role).toBe('user');
    expect(textOf(message)).toBe(`${SUMMARY}\n\ntail start`);
    expect(await wireContent(message)).toBe(`${SUMMARY}\n\ntail start`);
  });
});
