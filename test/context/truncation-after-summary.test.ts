import { describe, expect, it } from 'vitest';
import { ContextCompressor, formatSummary, summaryBodyOf } from '../../src/context/index.js';
import { type Message, textOf } from '../../src/core/messages.js';
import {
  assistant,
  call,
  fakeSummarizer,
  pairingProblems,
  recordingEmitter,
  result,
  user,
} from './helpers.js';

/** A conversation compacted before (its summary after the head), a few turns since, and a huge last tool result. */
function summarisedConversation(): Message[] {
  const messages = [
    user('task'),
    assistant('ok'),
    user('go'),
    assistant(formatSummary(`EARLIER ${'z '.repeat(400)}`)),
  ];
  for (let i = 0; i < 3; i++) messages.push(user(`step ${i} ${'y '.repeat(20)}`), assistant(`done ${i}`));
  messages.push(user('now'), call('c1'), result('c1', 'x '.repeat(3000)));
  return messages;
}

describe('a truncation instead of a summary that would not shrink the request', () => {
  it('says how many earlier messages were removed when the conversation already had a summary, carrying that summary shortened', async () => {
    const messages = summarisedConversation();
    const emit = recordingEmitter();
    // A summariser that writes as much as it may: its summary is no smaller than the small middle.
    const summarizer = fakeSummarizer(() => 'w '.repeat(20_000));
    const out = await new ContextCompressor({ summarizer, contextWindow: 3000, emit }).compress({ messages });
    expect(out).toMatchObject({ compressed: true, method: 'truncate', fallback: 'truncate' });
    expect(emit.events).toEqual([expect.objectContaining({ method: 'truncate', fallback: 'truncate' })]);
    // The head, then the newest group (the call, with the notice merged in to keep roles alternating, and its result).
    expect(out.messages).toHaveLength(5);
    expect(out.messages.at(-1)).toEqual(messages.at(-1));
    expect(textOf(out.messages[3]!)).toContain(
      '[Context truncated] 8 earlier message(s) were removed to fit the context window (a summary would not shrink the request).',
    );
    // Carried whole it would cost as much as the messages removed: it is carried shortened, and says so.
    const carried = out.messages.map((m) => summaryBodyOf(m)).filter(Boolean);
    expect(carried).toHaveLength(1);
    expect(carried[0]).toMatch(/^EARLIER z z .*\[\.\.\.truncated\]$/s);
    expect(pairingProblems(out.messages)).toEqual([]);
  });
});
