import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { type AnthropicSettings, createAnthropic } from '../../../src/providers/anthropic/index.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';
import { conversation, fixture, only, WAV_BASE64 } from './conversation.js';

const server = useFixtureServer();

function claude(settings: AnthropicSettings = { cache: false }) {
  return createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })(
    'claude-sonnet-4-5',
    settings,
  );
}

async function sent(request: ModelRequest, settings?: AnthropicSettings): Promise<any> {
  server.handle(serveFixture('anthropic/nonstream-parallel-tool-use.json'));
  await claude(settings).generate(request);
  return server.lastRequest().body;
}

async function refusal(request: ModelRequest) {
  const error = await failure(claude().generate(request));
  expect(error.kind).toBe('bad_request');
  expect(server.requests).toHaveLength(0);
  return error;
}

describe('Anthropic images and documents on the wire', () => {
  it('sends image and document blocks, and tool attachments inside tool_result content', async () => {
    const body = await sent({ messages: conversation() });
    expect(body.messages).toEqual(fixture('anthropic').messages);
  });

  it('sends a PDF by URL as a url document and plain text as a text document', async () => {
    const body = await sent({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
            { type: 'file', mediaType: 'text/plain', data: 'aGVsbG8gbm90ZXM=', filename: 'notes.txt' },
          ],
        },
      ],
    });
    expect(body.messages[0].content).toEqual([
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'hello notes' },
        title: 'notes.txt',
      },
    ]);
  });

  it('puts a cache breakpoint on the last block of a tool result with attachments', async () => {
    const body = await sent({ messages: conversation() }, {});
    const result = body.messages.at(-1).content.at(-1);
    expect(result.type).toBe('tool_result');
    expect(result.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('leaves out the text block of a tool result with attachments and no text', async () => {
    const messages = conversation();
    const tool = messages[2]!;
    if (tool.role !== 'tool') throw new Error('unexpected conversation');
    tool.content[0]!.content = '';
    const body = await sent({ messages });
    expect(body.messages[2].content[0].content.map((b: { type: string }) => b.type)).toEqual([
      'image',
      'document',
    ]);
  });

  it('refuses audio before sending, naming the part', async () => {
    const error = await refusal({
      messages: only({ type: 'file', mediaType: 'audio/wav', data: WAV_BASE64 }),
    });
    expect(error.message).toContain(
      'anthropic:claude-sonnet-4-5 cannot take messages[0].content[1] [file: audio/wav',
    );
  });

  it('refuses an image type it cannot read, and a text document by URL, before sending', async () => {
    await refusal({ messages: only({ type: 'image', mediaType: 'image/bmp', data: 'Qk0=' }) });
    await refusal({
      messages: only({ type: 'file', mediaType: 'text/plain', url: 'https://example.com/a.txt' }),
    });
  });

  it('refuses an audio attachment of a tool result before sending', async () => {
    const messages = conversation();
    const tool = messages[2]!;
    if (tool.role !== 'tool') throw new Error('unexpected conversation');
    tool.content[0]!.attachments = [{ type: 'file', mediaType: 'audio/wav', data: WAV_BASE64 }];
    const error = await refusal({ messages });
    expect(error.message).toContain('messages[2] result of screenshot call call_1, attachment 0');
  });
});
