/** `contextPerConversation` shares running counts: a run on a known history counts only what it adds. */
import { describe, expect, it, vi } from 'vitest';
import { contextPerConversation } from '../../src/context/context-manager.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import type { Message } from '../../src/core/messages.js';
import { assistant, user } from './helpers.js';

const history: Message[] = Array.from({ length: 2000 }, (_, i) =>
  i % 2 === 0 ? user(`question ${i}`) : assistant(`answer ${i}`),
);

function setup() {
  const counter = new TokenCounter();
  const factory = contextPerConversation({ counter, contextWindow: 10_000_000 });
  const counted = vi.spyOn(counter, 'countMessage');
  return { counter, factory, counted };
}

describe('contextPerConversation accounting', () => {
  it('counts only the messages a new run adds to a history an earlier run counted', async () => {
    const { counter, factory, counted } = setup();
    const first = [...history, user('run 1')];
    await factory().prepareRequest({ messages: first });
    counted.mockClear();

    const second = [...history, user('run 2'), assistant('thinking')];
    const manager = factory();
    await manager.prepareRequest({ messages: second });
    expect(counted.mock.calls.length).toBeLessThanOrEqual(2);
    expect(manager.lastCount).toBe(counter.count({ messages: second }));
  });

  it('counts the whole conversation for a history it has not seen', async () => {
    const { counter, factory } = setup();
    const manager = factory();
    const other = [user('another conversation'), ...history.slice(1)];
    await manager.prepareRequest({ messages: other });
    expect(manager.lastCount).toBe(counter.count({ messages: other }));
  });

  it('recounts a message replaced in place (a note attached for one call)', async () => {
    const { counter, factory } = setup();
    const manager = factory();
    const messages = [...history];
    await manager.prepareRequest({ messages });
    messages[messages.length - 1] = assistant(`${'a much longer answer '.repeat(20)}`);
    await manager.prepareRequest({ messages });
    expect(manager.lastCount).toBe(counter.count({ messages }));
  });

  it('keeps each of two interleaved runs on one history exact', async () => {
    const { counter, factory } = setup();
    const a = factory();
    const b = factory();
    const left = [...history, user('left')];
    const right = [...history, user('right'), assistant('right answer')];
    for (let turn = 0; turn < 3; turn++) {
      left.push(assistant(`left ${turn}`));
      await a.prepareRequest({ messages: left });
      expect(a.lastCount).toBe(counter.count({ messages: left }));
      right.push(user(`right ${turn}`));
      await b.prepareRequest({ messages: right });
      expect(b.lastCount).toBe(counter.count({ messages: right }));
    }
  });
});
