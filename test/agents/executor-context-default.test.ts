/**
 * Context compression is on by default (the seeds' threshold: half the
 * window), with the agent's own model writing the summary; `context: false`
 * turns it off.
 */
import { describe, expect, it } from 'vitest';
import { Executor, type Message } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { ofType, runCollect } from '../support/executor-fixtures.js';

/** 40 turns of ~200 tokens each: 8000 tokens, over the threshold of a 8000-token window. */
function longHistory(): Message[] {
  const history: Message[] = [];
  for (let i = 0; i < 20; i++) {
    history.push({ role: 'user', content: `question ${i}: ${'word '.repeat(160)}` });
    history.push({
      role: 'assistant',
      content: [{ type: 'text', text: `answer ${i}: ${'word '.repeat(160)}` }],
    });
  }
  return history;
}

const smallWindow = { contextWindow: 8_000 };

describe('Executor: context compression by default', () => {
  it('compresses a conversation past half the window, its own model summarising', async () => {
    const model = new ScriptedModel(
      [{ text: '## Active Task\nanswer the last question' }, { text: 'answer' }],
      {
        info: smallWindow,
      },
    );
    const history = longHistory();
    const executor = new Executor({ model, runtime: testRuntime() });
    const { result, events } = await runCollect(executor, 'and now?', { history });

    expect(result).toMatchObject({ status: 'success', output: 'answer' });
    expect(ofType(events, 'compression')).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
    const sent = model.requests[1]!;
    expect(sent.messages.length).toBeLessThan(history.length + 1);
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'and now?' });
  });

  it('leaves a short conversation untouched: the request goes out as the loop built it', async () => {
    const model = new ScriptedModel([{ text: 'answer' }], { info: smallWindow });
    const { events } = await runCollect(new Executor({ model, runtime: testRuntime() }), 'hi');
    expect(ofType(events, 'compression')).toEqual([]);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('with context: false sends the whole conversation', async () => {
    const model = new ScriptedModel([{ text: 'answer' }], { info: smallWindow });
    const history = longHistory();
    const executor = new Executor({ model, runtime: testRuntime(), context: { manager: false } });
    const { result, events } = await runCollect(executor, 'and now?', { history });
    expect(result).toMatchObject({ output: 'answer' });
    expect(ofType(events, 'compression')).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.messages).toHaveLength(history.length + 1);
  });
});
