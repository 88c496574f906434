import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, toTrajectory, toTrajectoryJSONL } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const weather = defineTool({
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21°C`,
});

async function runOnce() {
  const model = new ScriptedModel([
    {
      reasoning: 'I should look it up.',
      toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Porto' } }],
    },
    { text: 'It is 21°C in Porto.' },
  ]);
  const executor = new Executor({ model, tools: [weather] });
  return (await executor.run('Weather in Porto?').result).messages;
}

describe('trajectories', () => {
  it("turn a run's conversation into OpenAI's chat fine-tuning format with its tools", async () => {
    const record = await toTrajectory(await runOnce(), { system: 'You are helpful.', tools: [weather] });
    expect(record).toEqual({
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Weather in Porto?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Porto"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Porto: 21°C' },
        { role: 'assistant', content: 'It is 21°C in Porto.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Weather of a city',
            parameters: expect.objectContaining({ type: 'object', required: ['city'] }),
          },
        },
      ],
    });
  });

  it('write ShareGPT with Hermes tool-call tags, reasoning inline when asked', async () => {
    const record = await toTrajectory(await runOnce(), {
      format: 'sharegpt',
      reasoning: 'inline',
      tools: [weather],
    });
    expect(record).toMatchObject({
      conversations: [
        { from: 'system', value: expect.stringMatching(/^<tools>\n\[\{"name":"weather"/) },
        { from: 'human', value: 'Weather in Porto?' },
        {
          from: 'gpt',
          value:
            '<think>\nI should look it up.\n</think>\n<tool_call>\n{"name":"weather","arguments":{"city":"Porto"}}\n</tool_call>',
        },
        {
          from: 'tool',
          value: '<tool_response>\n{"name":"weather","content":"Porto: 21°C"}\n</tool_response>',
        },
        { from: 'gpt', value: 'It is 21°C in Porto.' },
      ],
    });
  });

  it('write one example per line, images as data URLs', async () => {
    const image = { type: 'image' as const, mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    const jsonl = await toTrajectoryJSONL([
      [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] },
        { role: 'assistant', content: [{ type: 'text', text: 'A PNG.' }] },
      ],
      [{ role: 'user', content: 'Hi' }],
    ]);
    const lines = jsonl
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].messages[0].content[1]).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,iVBORw==' },
    });
    expect(lines[1]).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
  });
});
