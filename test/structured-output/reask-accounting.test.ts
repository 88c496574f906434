/**
 * What an execution with an output schema reports after re-asks and the
 * formatting call: `result.usage` is the sum of the run's `usage` events, and
 * `newMessages` holds what a follow-up needs: the accepted answer, not the
 * rejected replies and re-asks, so an app storing `history + input +
 * newMessages` continues from the answer the result holds.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor, type Message, type TandemEvent, textOf, type Usage } from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { add } from '../support/executor-fixtures.js';

const city = z.object({ name: z.string(), population: z.number().int() });
const PARIS = { name: 'Paris', population: 2_100_000 };
const used = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });

async function collect<T>(run: { on(type: '*', fn: (e: TandemEvent) => void): unknown; result: Promise<T> }) {
  const events: TandemEvent[] = [];
  run.on('*', (event) => events.push(event));
  return { result: await run.result, events };
}

function sumOfUsageEvents(events: TandemEvent[]) {
  const sum = { inputTokens: 0, outputTokens: 0 };
  for (const event of events) {
    if (event.type !== 'usage') continue;
    sum.inputTokens += event.usage.inputTokens;
    sum.outputTokens += event.usage.outputTokens;
  }
  return sum;
}

const tokens = (usage: Usage) => ({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });

function executor(script: ScriptEntry[], tools = false) {
  const model = new ScriptedModel(script, {
    info: tools ? { structuredOutput: 'json_schema', structuredOutputWithTools: false } : undefined,
  });
  return new Executor({ model, tools: tools ? [add] : [], output: city, runtime: testRuntime() });
}

describe('result.usage of a structured execution', () => {
  it('counts the re-asks: equal to the sum of the usage events', async () => {
    const exec = executor([
      { text: '{"name": "Paris"}', usage: used(3, 3) },
      { text: '{"name": "Paris", "population": "many"}', usage: used(3, 3) },
      { text: JSON.stringify(PARIS), usage: used(3, 3) },
    ]);
    const { result, events } = await collect(exec.run('Paris?'));
    expect(result.object).toEqual(PARIS);
    expect(tokens(result.usage)).toEqual({ inputTokens: 9, outputTokens: 9 });
    expect(tokens(result.usage)).toEqual(sumOfUsageEvents(events));
    const complete = events.find((e) => e.type === 'complete');
    expect(complete && tokens(complete.usage)).toEqual({ inputTokens: 9, outputTokens: 9 });
  });

  it('counts the formatting call: equal to the sum of the usage events', async () => {
    const exec = executor(
      [
        { toolCalls: [{ name: 'add', args: { a: 2_000_000, b: 100_000 } }], usage: used(3, 1) },
        { text: 'Paris has 2,100,000 people.', usage: used(3, 2) },
        { text: JSON.stringify(PARIS), usage: used(3, 3) },
      ],
      true,
    );
    const { result, events } = await collect(exec.run('Paris?'));
    expect(result.object).toEqual(PARIS);
    expect(tokens(result.usage)).toEqual({ inputTokens: 9, outputTokens: 6 });
    expect(tokens(result.usage)).toEqual(sumOfUsageEvents(events));
  });
});

describe('newMessages after a structured-output re-ask', () => {
  it('holds the accepted answer in place of the rejected one, without the re-asks', async () => {
    const exec = executor([
      { text: '{"name": "Paris"}' },
      { text: 'Paris, about two million.' },
      { text: JSON.stringify(PARIS) },
    ]);
    const history: Message[] = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hi! Ask me about a city.' }] },
    ];
    const input = 'Paris?';
    const result = await exec.run(input, { history }).result;
    expect(result.newMessages).toHaveLength(1);
    expect(JSON.parse(textOf(result.newMessages[0]!))).toEqual(PARIS);
    const stored: Message[] = [...history, { role: 'user', content: input }, ...result.newMessages];
    const answers = stored.filter((m) => m.role === 'assistant');
    expect(JSON.parse(textOf(answers.at(-1)!))).toEqual(PARIS);
    expect(stored).toEqual(result.messages);
  });
});
