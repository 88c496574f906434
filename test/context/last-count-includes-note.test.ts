import { describe, expect, it } from 'vitest';
import { COMPACTION_NOTE } from '../../src/context/index.js';
import {
  ContextCompressor,
  createContextManager,
  type Message,
  type ModelRequest,
  TokenCounter,
} from '../../src/index.js';
import { fakeSummarizer, recordingEmitter, toolConversation, user } from './helpers.js';

function setup() {
  const counter = new TokenCounter();
  const emit = recordingEmitter();
  const compressor = new ContextCompressor({ counter, summarizer: fakeSummarizer(), contextWindow: 4000 });
  return { counter, emit, manager: createContextManager({ compressor, emit }) };
}

describe('lastCount is the size of the request as sent, the compaction note included', () => {
  it.each([
    ['a string system prompt', 'You are terse.'],
    ['a system prompt in parts', [{ text: 'prefix', cache: true }, { text: 'suffix' }]],
    ['no system prompt', undefined],
  ])('with %s, on the compressing turn and the turns after it', async (_name, system) => {
    const { counter, emit, manager } = setup();
    const messages: Message[] = toolConversation(30, 100);
    const prepared = await manager.prepareRequest({ system: system as ModelRequest['system'], messages });
    expect(emit.events.map((e) => e.method)).toEqual(['summary']);
    expect(JSON.stringify(prepared.system)).toContain(COMPACTION_NOTE.slice(0, 40));
    expect(manager.lastCount).toBe(counter.count(prepared));
    expect(emit.events[0]!.tokensAfter).toBe(manager.lastCount);

    messages.push(user('next question'));
    const next = await manager.prepareRequest({ system: system as ModelRequest['system'], messages });
    expect(emit.events).toHaveLength(1);
    expect(manager.lastCount).toBe(counter.count(next));
  });

  it('after a context-length recovery', async () => {
    const { counter, manager } = setup();
    const prepared = await manager.prepareRequest({ system: 'sys', messages: toolConversation(8, 100) });
    expect(prepared.system).toBe('sys');
    const recovered = await manager.compressHook(prepared, { reason: 'context_length', contextLimit: 1500 });
    expect(recovered?.system).toBe(`sys\n\n${COMPACTION_NOTE}`);
    expect(manager.lastCount).toBe(counter.count(recovered!));
  });
});
