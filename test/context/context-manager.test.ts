import { describe, expect, it, vi } from 'vitest';
import { ContextCompressor } from '../../src/context/compressor.js';
import { createContextManager } from '../../src/context/context-manager.js';
import { COMPACTION_NOTE, summaryBodyOf } from '../../src/context/summary-prompt.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import type { Message } from '../../src/core/messages.js';
import type { ModelRequest } from '../../src/model/types.js';
import {
  assistant,
  call,
  deepFreeze,
  fakeSummarizer,
  pairingProblems,
  recordingEmitter,
  result,
  toolConversation,
  user,
} from './helpers.js';

function setup(contextWindow = 4000) {
  const counter = new TokenCounter();
  const summarizer = fakeSummarizer((_, n) => `summary ${n}`);
  const compressor = new ContextCompressor({ counter, summarizer, contextWindow });
  const emit = recordingEmitter();
  const manager = createContextManager({ compressor, emit });
  const info = { iteration: 0, signal: new AbortController().signal, emit };
  return { counter, summarizer, compressor, emit, manager, info };
}

/** Appends one turn's messages, as an executor does. */
function exchange(i: number): Message[] {
  return [
    user(`question ${i} ${'q'.repeat(60)}`),
    call(`c${i}`),
    result(`c${i}`, 'x'.repeat(150)),
    assistant(`answer ${i}`),
  ];
}

describe('createContextManager', () => {
  it('passes a request under the threshold through untouched', async () => {
    const { manager, info } = setup();
    const request: ModelRequest = { system: 'sys', messages: toolConversation(2) };
    expect(await manager.prepareRequest(request, info)).toBe(request);
    expect(manager.lastCount).toBeGreaterThan(0);
  });

  it('counts only the messages added since the previous call', async () => {
    const { counter, manager, info } = setup(1_000_000);
    const countMessage = vi.spyOn(counter, 'countMessage');
    const messages: Message[] = [];
    const perCall: number[] = [];
    for (let i = 0; i < 200; i++) {
      messages.push(...exchange(i));
      countMessage.mockClear();
      await manager.prepareRequest({ system: 'sys', messages }, info);
      perCall.push(countMessage.mock.calls.length);
    }
    // Four new messages per turn, whatever the history length (800 messages at the end).
    expect(new Set(perCall)).toEqual(new Set([4]));
    expect(manager.lastCount).toBe(counter.count({ system: 'sys', messages }));
  });

  it('compresses past the threshold and keeps applying the compaction to later turns', async () => {
    const { counter, summarizer, compressor, emit, manager, info } = setup();
    const messages: Message[] = [];
    const sent: ModelRequest[] = [];
    for (let i = 0; i < 80; i++) {
      messages.push(...exchange(i));
      const snapshot = structuredClone(messages);
      sent.push(
        await manager.prepareRequest({ system: 'sys', messages: deepFreeze(messages.slice()) }, info),
      );
      expect(messages).toEqual(snapshot);
    }
    const compressions = emit.events.filter((e) => e.type === 'compression');
    expect(compressions.length).toBeGreaterThan(1);
    expect(compressions.length).toBeLessThan(20);
    expect(summarizer.requests.length).toBe(compressions.filter((e) => e.method === 'summary').length);
    for (const request of sent) {
      expect(counter.count(request)).toBeLessThan(compressor.threshold + 200);
      expect(pairingProblems(request.messages)).toEqual([]);
    }
    const last = sent.at(-1)!;
    expect(last.messages.at(-1)).toBe(messages.at(-1));
    expect(last.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(last.messages.some((m) => summaryBodyOf(m) !== undefined)).toBe(true);
    expect(last.system).toBe(`sys\n\n${COMPACTION_NOTE}`);
  });

  it('after a compaction a turn still costs only its new messages', async () => {
    const { counter, emit, manager, info } = setup();
    const messages: Message[] = [];
    let i = 0;
    while (emit.events.length === 0) {
      messages.push(...exchange(i++));
      await manager.prepareRequest({ messages }, info);
    }
    const countMessage = vi.spyOn(counter, 'countMessage');
    messages.push(...exchange(i++));
    await manager.prepareRequest({ messages }, info);
    expect(emit.events).toHaveLength(1);
    expect(countMessage).toHaveBeenCalledTimes(4);
  });

  it('appends the compaction note once to a system prompt given as parts', async () => {
    const { manager, info } = setup();
    const system = [{ text: 'prefix', cache: true }, { text: 'suffix' }];
    const messages: Message[] = toolConversation(40, 100);
    const first = await manager.prepareRequest({ system, messages }, info);
    const again = await manager.prepareRequest({ system: first.system, messages }, info);
    expect(first.system).toEqual([...system, { text: COMPACTION_NOTE }]);
    expect(again.system).toEqual(first.system);
    expect(system).toHaveLength(2);
  });

  it('starts afresh when the conversation is replaced', async () => {
    const { manager, info } = setup();
    await manager.prepareRequest({ messages: toolConversation(40, 100) }, info);
    const other = toolConversation(2);
    const request = { messages: other };
    expect(await manager.prepareRequest(request, info)).toBe(request);
  });

  it('recounts once when the tokenizer arrives', async () => {
    const counter = new TokenCounter({ model: 'gpt-4o' });
    const manager = createContextManager({
      compressor: new ContextCompressor({ counter, contextWindow: 1_000_000 }),
    });
    const messages = toolConversation(5);
    await manager.prepareRequest({ messages });
    const estimated = manager.lastCount;
    await counter.ready();
    await manager.prepareRequest({ messages });
    expect(manager.lastCount).not.toBe(estimated);
    expect(manager.lastCount).toBe(counter.count({ messages }));
  });
});

describe('compressHook', () => {
  it('compresses a rejected request to fit the limit the provider named and lowers the window', async () => {
    const { compressor, counter, manager, info } = setup(1_000_000);
    const messages = toolConversation(60, 200);
    const prepared = await manager.prepareRequest({ system: 'sys', messages, maxOutputTokens: 500 }, info);
    const recovered = await manager.compressHook(prepared, { reason: 'context_length', contextLimit: 6000 });
    expect(recovered).toBeDefined();
    expect(counter.count(recovered!)).toBeLessThanOrEqual(6000 * 0.8 - 500);
    expect(pairingProblems(recovered!.messages)).toEqual([]);
    expect(compressor.contextWindow).toBe(6000);
    // The next turn keeps the recovered compaction and only adds the new message.
    const next = await manager.prepareRequest(
      { system: 'sys', messages: [...messages, user('and now?')] },
      info,
    );
    expect(next.messages.slice(0, -1)).toEqual(recovered!.messages);
  });

  it('halves the request when no limit is named', async () => {
    const { counter, manager } = setup(1_000_000);
    const request: ModelRequest = { messages: toolConversation(60, 200) };
    const recovered = await manager.compressHook(request, { reason: 'payload_too_large' });
    expect(counter.count(recovered!)).toBeLessThanOrEqual(counter.count(request) / 2);
  });

  it('answers undefined when the request cannot shrink', async () => {
    const { manager } = setup();
    const request: ModelRequest = { messages: [user('x'.repeat(40_000))] };
    expect(
      await manager.compressHook(request, { reason: 'context_length', contextLimit: 1000 }),
    ).toBeUndefined();
  });
});

describe('compression retries', () => {
  it('does not call the summariser every turn when compression cannot get under the threshold', async () => {
    const { summarizer, emit, manager, info, compressor } = setup(4000);
    // Huge recent messages: the protected tail alone is over the threshold.
    const messages: Message[] = [...toolConversation(10, 100)];
    messages.push(user('b'.repeat(12_000)), assistant('c'.repeat(12_000)), user('d'.repeat(12_000)));
    await manager.prepareRequest({ messages }, info);
    // Compression attempts only: the context_pressure warnings are not attempts.
    const compressions = () => emit.events.filter((e) => e.type === 'compression');
    const attempts = compressions().length;
    expect(attempts).toBe(1);
    expect(manager.lastCount).toBeGreaterThan(compressor.threshold);
    for (let i = 0; i < 5; i++) {
      messages.push(user(`small ${i}`));
      await manager.prepareRequest({ messages }, info);
    }
    expect(compressions()).toHaveLength(attempts);
    expect(summarizer.requests.length).toBeLessThanOrEqual(1);
    // Real growth (10 % of the threshold) allows another attempt.
    messages.push(user('g'.repeat(1000)));
    await manager.prepareRequest({ messages }, info);
    expect(compressions().length).toBeGreaterThan(attempts);
  });
});
