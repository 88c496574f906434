/**
 * `ScriptedModel`'s usage: exactly what the script says by default (tests
 * asserting usage or token budgets stay exact), an estimate from the text
 * sent and replied with `estimateUsage` (demos that show token counts).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, estimateTokens } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const script = () => [{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }];

describe('ScriptedModel usage', () => {
  it('reports zero usage for steps that script none, by default', async () => {
    const model = new ScriptedModel(script());
    const result = await new Executor({ model, tools: [add] }).run('2 + 3?').result;
    expect(result.usage).toMatchObject({ inputTokens: 0, outputTokens: 0 });
  });

  it('with estimateUsage, reports the estimated tokens of the request and the reply', async () => {
    const model = new ScriptedModel(script(), { estimateUsage: true, stream: false });
    const response = await model.generate({ system: 'You add numbers.', messages: [] });
    expect(response.usage).toEqual({
      inputTokens: estimateTokens('You add numbers.'),
      outputTokens: estimateTokens('add{"a":2,"b":3}'),
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('with estimateUsage, a run over several turns books non-zero usage, growing with the conversation', async () => {
    const model = new ScriptedModel(script(), { estimateUsage: true });
    const usages: number[] = [];
    const run = new Executor({ model, tools: [add] }).run('2 + 3?');
    for await (const event of run) if (event.type === 'usage') usages.push(event.usage.inputTokens);
    const result = await run.result;
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBe(
      estimateTokens('add{"a":2,"b":3}') + estimateTokens('The sum is 5.'),
    );
    expect(usages).toHaveLength(2);
    expect(usages[1]).toBeGreaterThan(usages[0]!);
  });

  it('with estimateUsage, a step that scripts its usage reports exactly that', async () => {
    const model = new ScriptedModel([{ text: 'ok', usage: { inputTokens: 7, outputTokens: 1 } }], {
      estimateUsage: true,
    });
    const result = await new Executor({ model }).run('hi').result;
    expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 1 });
  });
});
