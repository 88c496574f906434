import { describe, expect, it } from 'vitest';
import { ContextCompressor } from '../../src/context/compressor.js';
import {
  COMPACTION_NOTE,
  SUMMARY_END,
  SUMMARY_PREFIX,
  SUMMARY_TEMPLATE,
  summaryBodyOf,
} from '../../src/context/summary-prompt.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import { PRUNED_TOOL_OUTPUT } from '../../src/context/tool-output-pruning.js';
import { AbortError, ModelError } from '../../src/core/errors.js';
import { type Message, textOf } from '../../src/core/messages.js';
import {
  assistant,
  call,
  deepFreeze,
  fakeSummarizer,
  pairingProblems,
  recordingEmitter,
  result,
  side,
  toolConversation,
  user,
} from './helpers.js';

const counter = () => new TokenCounter();

describe('ContextCompressor thresholds', () => {
  it('triggers at half the context window by default', () => {
    const c = new ContextCompressor({ contextWindow: 10_000 });
    expect(c.threshold).toBe(5000);
    expect(c.shouldCompress(4999)).toBe(false);
    expect(c.shouldCompress(5000)).toBe(true);
    expect(c.target).toBe(4000);
  });

  it('takes an absolute threshold, capped below the window', () => {
    expect(new ContextCompressor({ contextWindow: 128_000, thresholdTokens: 60_000 }).threshold).toBe(60_000);
    expect(new ContextCompressor({ contextWindow: 32_000, thresholdTokens: 60_000 }).threshold).toBe(28_800);
  });

  it('follows a lowered context window', () => {
    const c = new ContextCompressor({ contextWindow: 100_000 });
    c.setContextWindow(20_000);
    expect(c.threshold).toBe(10_000);
  });
});

describe('ContextCompressor.compress', () => {
  it('returns the conversation unchanged when it is under the target', async () => {
    const messages = toolConversation(2);
    const out = await new ContextCompressor({ contextWindow: 100_000 }).compress({ messages });
    expect(out.compressed).toBe(false);
    expect(out.messages).toEqual(messages);
  });

  it('prunes old tool outputs first and stops when that is enough', async () => {
    const summarizer = fakeSummarizer();
    const emit = recordingEmitter();
    const messages = deepFreeze(toolConversation(12, 2000));
    const c = new ContextCompressor({ counter: counter(), summarizer, contextWindow: 12_000, emit });
    const out = await c.compress({ messages });
    expect(out.method).toBe('prune');
    expect(summarizer.requests).toHaveLength(0);
    expect(out.messages).toHaveLength(messages.length);
    expect(out.tokensAfter).toBeLessThanOrEqual(c.target);
    const pruned = out.messages.filter(
      (m) => m.role === 'tool' && m.content[0]!.content === PRUNED_TOOL_OUTPUT,
    );
    expect(pruned.length).toBeGreaterThan(0);
    // The newest output is in the tail and stays whole.
    expect(out.messages.at(-2)).toBe(messages.at(-2));
    expect(out.systemNote).toBeUndefined();
    expect(emit.events).toEqual([
      expect.objectContaining({
        type: 'compression',
        method: 'prune',
        tokensBefore: out.tokensBefore,
        tokensAfter: out.tokensAfter,
      }),
    ]);
  });

  it('summarises the middle into one structured summary, keeping the first 3 messages and the tail', async () => {
    const summarizer = fakeSummarizer(() => '## Active Task\nfix the bug');
    const emit = recordingEmitter();
    const messages = deepFreeze(toolConversation(30, 100));
    const c = new ContextCompressor({ counter: counter(), summarizer, contextWindow: 4000, emit });
    const out = await c.compress({ system: 'sys', messages });

    expect(out.method).toBe('summary');
    expect(out.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    // messages[3] is the answer of the first exchange: the summary is merged or placed after the head.
    const summaryIndex = out.messages.findIndex((m) => summaryBodyOf(m) !== undefined);
    expect(summaryIndex).toBe(3);
    expect(summaryBodyOf(out.messages[3]!)).toBe('## Active Task\nfix the bug');
    const tail = out.messages.slice(4);
    expect(tail).toEqual(messages.slice(messages.length - tail.length));
    expect(tail.length).toBeGreaterThanOrEqual(3);
    expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
    expect(out.systemNote).toBe(COMPACTION_NOTE);
    expect(c.summary).toBe('## Active Task\nfix the bug');

    const prompt = summarizer.requests[0]!.messages[0]!.content as string;
    expect(prompt).toContain(SUMMARY_TEMPLATE);
    expect(prompt).toContain('[TOOL CALL read c1]');
    expect(prompt).toContain('[TOOL RESULT read c1]');
    expect(prompt).not.toContain('question 0');
    expect(summarizer.requests[0]!.maxOutputTokens).toBeGreaterThan(0);
    expect(emit.events).toEqual([
      {
        type: 'compression',
        method: 'summary',
        tokensBefore: out.tokensBefore,
        tokensAfter: out.tokensAfter,
        messagesBefore: messages.length,
        messagesAfter: out.messages.length,
      },
    ]);
  });

  it('updates the previous summary instead of summarising it again, and notes compaction once', async () => {
    const summarizer = fakeSummarizer((_, n) => `SUMMARY ${n}`);
    const c = new ContextCompressor({ counter: counter(), summarizer, contextWindow: 4000 });
    const first = await c.compress({ messages: toolConversation(30, 100) });
    const grown = [...first.messages, ...toolConversation(30, 100).slice(4)];
    const second = await c.compress({ messages: grown });
    expect(second.method).toBe('summary');
    const prompt = summarizer.requests[1]!.messages[0]!.content as string;
    expect(prompt).toContain('PREVIOUS SUMMARY:\nSUMMARY 0');
    const newTurns = prompt.slice(prompt.indexOf('NEW TURNS TO INCORPORATE'));
    expect(newTurns).not.toContain(SUMMARY_PREFIX);
    expect(newTurns).not.toContain('SUMMARY 0');
    expect(second.messages.filter((m) => summaryBodyOf(m) !== undefined)).toHaveLength(1);
    expect(summaryBodyOf(second.messages[3]!)).toBe('SUMMARY 1');
    expect(first.systemNote).toBe(COMPACTION_NOTE);
    expect(second.systemNote).toBeUndefined();
    expect(c.systemNote).toBe(COMPACTION_NOTE);
  });

  it('widens the head over the results of a call among the first 3 messages', async () => {
    const messages: Message[] = deepFreeze([
      user('start'),
      assistant('ok'),
      call('h1'),
      result('h1', 'head result'),
      ...toolConversation(30, 100),
    ]);
    const out = await new ContextCompressor({ summarizer: fakeSummarizer(), contextWindow: 4000 }).compress({
      messages,
    });
    expect(out.messages.slice(0, 4)).toEqual(messages.slice(0, 4));
    expect(pairingProblems(out.messages)).toEqual([]);
  });

  it('moves the tail cut onto the call when it would start at tool results', async () => {
    // One huge result right before a small final turn: the budget walk stops inside its group.
    const messages: Message[] = deepFreeze([
      ...toolConversation(20, 100),
      user('last question'),
      call('big'),
      result('big', 'y'.repeat(2400)),
      assistant('final'),
    ]);
    const out = await new ContextCompressor({
      summarizer: fakeSummarizer(),
      contextWindow: 6000,
      minTailMessages: 2,
    }).compress({ messages });
    expect(pairingProblems(out.messages)).toEqual([]);
    expect(out.messages.slice(-3)).toEqual(messages.slice(-3));
  });

  it('places the summary so roles alternate, merging it into the first tail message when needed', async () => {
    // Head ends with a user message, tail starts with an assistant message: no separate message fits.
    const messages: Message[] = deepFreeze([
      user('u0'),
      assistant('a0'),
      user('u1'),
      ...Array.from({ length: 40 }, (_, i) => [
        assistant(`a${i} ${'z'.repeat(200)}`),
        user(`u${i} ${'z'.repeat(200)}`),
      ]).flat(),
      assistant('tail start'),
      user('tail end'),
    ]);
    const out = await new ContextCompressor({
      summarizer: fakeSummarizer(),
      contextWindow: 4000,
      minTailMessages: 2,
      tailTokens: 10,
    }).compress({
      messages,
    });
    expect(out.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(out.messages).toHaveLength(5);
    const merged = out.messages[3]!;
    expect(merged.role).toBe('assistant');
    expect(textOf(merged)).toBe(`${SUMMARY_PREFIX}\n\nSUMMARY\n\n${SUMMARY_END}\n\ntail start`);
    for (let i = 1; i < out.messages.length; i++)
      expect(side(out.messages[i]!)).not.toBe(side(out.messages[i - 1]!));
  });

  it('truncates to the head and the newest contiguous messages when the summariser fails, and says so', async () => {
    const emit = recordingEmitter();
    const summarizer = fakeSummarizer(() => new ModelError('server', 'boom'));
    const messages = deepFreeze(toolConversation(30, 100));
    const c = new ContextCompressor({ counter: counter(), summarizer, contextWindow: 4000, emit });
    const out = await c.compress({ messages });
    expect(out.method).toBe('truncate');
    expect(out.reason).toBe('summary failed: boom');
    expect(out.fits).toBe(true);
    expect(out.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    const notice = textOf(out.messages[3]!);
    expect(notice.startsWith('[Context truncated]')).toBe(true);
    // The notice is its own message, or merged into the first kept message to keep roles alternating.
    const merged = !notice.endsWith('(summary failed: boom).');
    const kept = out.messages.length - 3 - (merged ? 0 : 1);
    expect(out.messages.slice(4)).toEqual(messages.slice(messages.length - out.messages.length + 4));
    expect(notice).toContain(`${messages.length - 3 - kept} earlier message(s) were removed`);
    expect(pairingProblems(out.messages)).toEqual([]);
    expect(emit.events).toEqual([
      expect.objectContaining({ method: 'truncate', reason: 'summary failed: boom' }),
    ]);
  });

  it('truncates when no summariser is configured, keeping an earlier summary', async () => {
    const summarizer = fakeSummarizer(() => 'KEEP ME');
    const first = await new ContextCompressor({ summarizer, contextWindow: 4000 }).compress({
      messages: toolConversation(30, 100),
    });
    const grown = [...first.messages, ...toolConversation(30, 100).slice(4)];
    const out = await new ContextCompressor({ contextWindow: 4000 }).compress({ messages: grown });
    expect(out.method).toBe('truncate');
    expect(out.reason).toBe('no summarizer configured');
    expect(out.messages.map((m) => summaryBodyOf(m)).filter(Boolean)).toEqual(['KEEP ME']);
  });

  it('rejects on abort instead of truncating', async () => {
    const controller = new AbortController();
    const summarizer = fakeSummarizer(() => {
      controller.abort();
      return new AbortError();
    });
    const c = new ContextCompressor({ summarizer, contextWindow: 4000 });
    await expect(
      c.compress({ messages: toolConversation(30, 100) }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortError);
  });

  it('shortens a summary that ignores its token budget', async () => {
    const summarizer = fakeSummarizer(() => 'word '.repeat(20_000));
    const out = await new ContextCompressor({ summarizer, contextWindow: 8000 }).compress({
      messages: toolConversation(60, 100),
    });
    expect(out.summary!.length).toBeLessThan(5000);
    expect(out.summary).toMatch(/\[\.\.\.truncated\]$/);
  });

  it('folds a middle larger than the summariser input in chunks', async () => {
    const summarizer = fakeSummarizer((_, n) => `S${n}`);
    const out = await new ContextCompressor({
      summarizer,
      contextWindow: 4000,
      summarizerInputChars: 2000,
    }).compress({
      messages: toolConversation(30, 100),
    });
    expect(summarizer.requests.length).toBeGreaterThan(2);
    const second = summarizer.requests[1]!.messages[0]!.content as string;
    expect(second).toContain('PREVIOUS SUMMARY:\nS0');
    expect(out.summary).toBe(`S${summarizer.requests.length - 1}`);
  });

  it('leaves the conversation alone when there is nothing between head and tail', async () => {
    const messages = [user('a'.repeat(4000)), assistant('b'.repeat(4000)), user('c'.repeat(4000))];
    const out = await new ContextCompressor({ summarizer: fakeSummarizer(), contextWindow: 1000 }).compress({
      messages,
    });
    expect(out.compressed).toBe(false);
    expect(out.fits).toBe(false);
    expect(out.messages).toEqual(messages);
  });

  it('counts the system prompt and tool schemas against the target', async () => {
    const messages = toolConversation(12, 100);
    const c = new ContextCompressor({ summarizer: fakeSummarizer(), contextWindow: 4000 });
    const alone = await c.compress({ messages });
    expect(alone.compressed).toBe(false);
    const tools = [{ name: 't', description: 'd', parameters: {} }];
    const big = await c.compress({ messages, system: 's'.repeat(3000), tools });
    expect(big.tokensBefore - alone.tokensBefore).toBe(750 + c.counter.countTools(tools));
    expect(big.compressed).toBe(true);
  });
});
