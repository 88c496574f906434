import { describe, expect, it } from 'vitest';
import { Executor } from '../../src/agents/index.js';
import { contextPerConversation } from '../../src/context/context-manager.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import { ModelError } from '../../src/core/errors.js';
import type { Message } from '../../src/core/messages.js';
import { createResilientInvoker } from '../../src/model/resilience/resilient-invoker.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { call, result, toolConversation } from '../context/helpers.js';
import { add, runCollect } from '../support/executor-fixtures.js';

describe('Executor with context management', () => {
  it('compresses a long history before the model call and emits a compression event, leaving the caller history untouched', async () => {
    const history: Message[] = toolConversation(60, 200);
    const snapshot = structuredClone(history);
    const summarizer = new ScriptedModel([{ text: '## Active Task\nsummary of the early turns' }], {
      id: 'scripted:flash',
    });
    const model = new ScriptedModel([{ text: 'answer' }]);
    const executor = new Executor({
      model,
      tools: [add],
      runtime: testRuntime(),
      context: {
        manager: contextPerConversation({ contextWindow: 4000, summarizer, counter: new TokenCounter() }),
      },
    });
    const { events, result: res } = await runCollect(executor, 'and now?', { history });
    expect(res?.output).toBe('answer');
    const compression = events.find((e) => e.type === 'compression');
    expect(compression).toMatchObject({ type: 'compression' });
    if (compression?.type === 'compression')
      expect(compression.tokensAfter).toBeLessThan(compression.tokensBefore);
    const sent = model.requests[0]!;
    expect(sent.messages.length).toBeLessThan(history.length + 1);
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'and now?' });
    expect(history).toEqual(snapshot);
  });

  it('recovers from a context-length error by compressing through the invoker seam, without spending an iteration', async () => {
    const history: Message[] = [];
    for (let i = 0; i < 30; i++) history.push(call(`c${i}`), result(`c${i}`, 'y'.repeat(400)));
    const model = new ScriptedModel([
      {
        error: new ModelError('context_length', 'maximum context length is 3000 tokens', {
          contextLimit: 3000,
        }),
      },
      { text: 'fits now' },
    ]);
    const runtime = testRuntime();
    const executor = new Executor({
      model,
      resilience: { invoker: () => createResilientInvoker({ models: [model], runtime }) },
      runtime,
      limits: { maxIterations: 1 },
      context: { manager: contextPerConversation({ contextWindow: 128_000, counter: new TokenCounter() }) },
    });
    const { result: res, events } = await runCollect(executor, 'go', {
      history: [{ role: 'user', content: 'start' }, ...history],
    });
    expect(res?.output).toBe('fits now');
    expect(res?.iterations).toBe(1);
    const size = (i: number) => JSON.stringify(model.requests[i]!.messages).length;
    expect(size(1)).toBeLessThan(size(0));
    expect(new TokenCounter().count(model.requests[1]!)).toBeLessThanOrEqual(3000);
    expect(events.some((e) => e.type === 'compression')).toBe(true);
  });
});
