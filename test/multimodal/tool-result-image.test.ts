/**
 * A tool returns a screenshot; the Executor hands it to the model with the
 * tool's result — on a scripted model, and on the wire of a real adapter
 * (Anthropic, against a loopback server).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, imagePart, type TandemEvent, toBase64 } from '../../src/index.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { respond, useFixtureServer } from '../providers/fixture-server.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 4]);

const screenshot = defineTool({
  name: 'screenshot',
  description: 'Takes a screenshot of the page',
  parameters: z.object({}),
  execute: () => ({
    content: 'Captured the page.',
    attachments: [imagePart(PNG, 'image/png', { filename: 'page.png' })],
  }),
});

const server = useFixtureServer();

function claudeReply(content: unknown[], stop: string) {
  return respond(200, {
    id: 'msg_tdm1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    stop_reason: stop,
    usage: { input_tokens: 10, output_tokens: 5 },
  });
}

describe('a tool-result image through an Executor', () => {
  it('reaches the next model call with the tool result, and the event stream carries only its size and type', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'screenshot', id: 'c1', args: {} }] },
      { text: 'A chart.' },
    ]);
    const events: TandemEvent[] = [];
    const run = new Executor({ model, tools: [screenshot], runtime: testRuntime() }).run(
      'What is on the page?',
    );
    run.on('*', (event) => events.push(event));
    expect((await run.result).output).toBe('A chart.');
    expect(model.requests[1]!.messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          toolCallId: 'c1',
          toolName: 'screenshot',
          content: 'Captured the page.',
          isError: false,
          attachments: [{ type: 'image', mediaType: 'image/png', data: toBase64(PNG), filename: 'page.png' }],
        },
      ],
    });
    const result = events.find((e) => e.type === 'tool_result') as TandemEvent<'tool_result'>;
    expect(result.attachments).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: 16, filename: 'page.png' },
    ]);
    expect(JSON.stringify(events)).not.toContain(toBase64(PNG));
  });

  it('goes on the wire inside the tool_result block of the next Anthropic request', async () => {
    server.handle(
      claudeReply([{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }], 'tool_use'),
      claudeReply([{ type: 'text', text: 'A chart.' }], 'end_turn'),
    );
    const model = createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })(
      'claude-sonnet-4-5',
      {
        cache: false,
      },
    );
    const run = new Executor({ model, tools: [screenshot], runtime: testRuntime(), stream: false });
    expect((await run.run('What is on the page?').result).output).toBe('A chart.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'Captured the page.' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: toBase64(PNG) } },
          ],
        },
      ],
    });
  });
});
