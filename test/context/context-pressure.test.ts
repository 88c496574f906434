import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { contextPerConversation, EventBus, type Message } from '../../src/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';

/** A conversation of `n` user turns of `words` words each. */
const conversation = (n: number, words = 50): Message[] =>
  Array.from({ length: n }, (_, i) => ({
    role: 'user' as const,
    content: `turn ${i} ${'word '.repeat(words)}`,
  }));

function recorder() {
  const bus = new EventBus({ runId: 'r', clock: new FakeClock() });
  const events: TandemEvent<'context_pressure'>[] = [];
  bus.on('context_pressure', (e) => events.push(e));
  return { bus, events };
}

describe('context pressure warnings', () => {
  it('warn once at 70% and once at 90% of the window, naming where the window came from', async () => {
    // Compression only past 99%: the warnings come first.
    const manager = contextPerConversation({
      model: 'unknown-local-model',
      contextWindow: 2000,
      thresholdRatio: 0.99,
    })();
    const { bus, events } = recorder();
    const send = (n: number) => manager.prepareRequest({ messages: conversation(n) }, { emit: bus });
    await send(10); // ~26%
    await send(26); // ~71%
    await send(27);
    await send(33); // ~91%
    await send(34);
    expect(events.map((e) => [e.level, e.window, e.windowSource])).toEqual([
      ['warning', 2000, 'option'],
      ['critical', 2000, 'option'],
    ]);
    expect(events[0]!.ratio).toBeGreaterThanOrEqual(0.7);
    expect(events[1]!.tokens).toBeGreaterThanOrEqual(1800);
  });

  it('say the window was assumed when nothing is known of the model', async () => {
    const model = new ScriptedModel([]);
    const manager = contextPerConversation({ model, summarizer: model, thresholdRatio: 0.99 })();
    const { bus, events } = recorder();
    // 128 000 assumed: ~90 000 tokens passes 70%.
    await manager.prepareRequest({ messages: conversation(1, 92_000) }, { emit: bus });
    expect(events).toMatchObject([{ level: 'warning', window: 128_000, windowSource: 'assumed' }]);
  });
});
