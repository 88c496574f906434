import { describe, expect, it } from 'vitest';
import type { ModelError } from '../../../src/core/errors.js';
import type { ModelRequest } from '../../../src/model/types.js';
import { createOpenAI, type OpenAIChatSettings } from '../../../src/providers/openai/index.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';
import { conversation, fixture, only, PDF_BASE64, WAV_BASE64 } from './conversation.js';

const server = useFixtureServer();

function model(settings?: OpenAIChatSettings) {
  return createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' })('gpt-4o', settings);
}

async function sent(request: ModelRequest, settings?: OpenAIChatSettings): Promise<any> {
  server.handle(serveFixture('openai-chat/nonstream-text.json'));
  await model(settings).generate(request);
  return server.lastRequest().body;
}

async function refused(request: ModelRequest, settings?: OpenAIChatSettings): Promise<ModelError> {
  const error = await failure(model(settings).generate(request));
  expect(error.kind).toBe('bad_request');
  expect(server.requests).toHaveLength(0);
  return error;
}

describe('OpenAI Chat images and files on the wire', () => {
  it('sends user parts as image_url and file parts, and tool attachments in a user message after the tool messages', async () => {
    const body = await sent({ messages: conversation() });
    expect(body.messages).toEqual(fixture('openai-chat').messages);
  });

  it('keeps an all-text user message a string', async () => {
    const body = await sent({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('sends WAV and MP3 audio as input_audio with its format', async () => {
    const body = await sent({ messages: only({ type: 'file', mediaType: 'audio/wav', data: WAV_BASE64 }) });
    expect(body.messages[0].content[1]).toEqual({
      type: 'input_audio',
      input_audio: { data: WAV_BASE64, format: 'wav' },
    });
  });

  it('names a file without a filename after its media type', async () => {
    const body = await sent({
      messages: only({ type: 'file', mediaType: 'application/pdf', data: PDF_BASE64 }),
    });
    expect(body.messages[0].content[1].file.filename).toBe('file.pdf');
  });

  it('refuses a file by URL before sending, naming the part', async () => {
    const error = await refused({
      messages: only({ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }),
    });
    expect(error.message).toContain('messages[0].content[1]');
    expect(error.message).toContain('https://example.com/a.pdf');
  });

  it('refuses audio other than WAV or MP3 before sending', async () => {
    await refused({ messages: only({ type: 'file', mediaType: 'audio/ogg', data: WAV_BASE64 }) });
  });

  it('refuses media the model does not take (ModelInfo.inputMediaTypes) before sending', async () => {
    const error = await refused({ messages: conversation() }, { info: { inputMediaTypes: ['text/*'] } });
    expect(error.message).toContain(
      'openai:gpt-4o cannot take messages[0].content[1] [image: image/png, 70 bytes]',
    );
  });

  it('refuses a tool attachment that is not base64, naming the result it belongs to', async () => {
    const messages = conversation();
    const tool = messages[2]!;
    if (tool.role !== 'tool') throw new Error('unexpected conversation');
    tool.content[0]!.attachments = [
      { type: 'image', mediaType: 'image/png', data: 'data:image/png;base64,AAAA' },
    ];
    const error = await refused({ messages });
    expect(error.message).toContain('messages[2] result of screenshot call call_1, attachment 0');
    expect(error.message).toContain('data: prefix');
  });
});
