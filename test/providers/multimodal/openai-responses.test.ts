import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { createOpenAI, type OpenAIResponsesSettings } from '../../../src/providers/openai/index.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';
import { conversation, fixture, only, WAV_BASE64 } from './conversation.js';

const server = useFixtureServer();

function model(settings?: OpenAIResponsesSettings) {
  return createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test' }).responses('gpt-4.1', settings);
}

async function sent(request: ModelRequest): Promise<any> {
  server.handle(serveFixture('openai-responses/nonstream-reasoning-encrypted.json'));
  await model().generate(request);
  return server.lastRequest().body;
}

describe('OpenAI Responses images and files on the wire', () => {
  it('sends input_image and input_file parts, and tool attachments inside function_call_output', async () => {
    const body = await sent({ messages: conversation() });
    expect(body.input).toEqual(fixture('openai-responses').input);
  });

  it('sends a file by URL as input_file file_url', async () => {
    const body = await sent({
      messages: only({ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }),
    });
    expect(body.input[0].content[1]).toEqual({ type: 'input_file', file_url: 'https://example.com/a.pdf' });
  });

  it('keeps a result without attachments a text output', async () => {
    const messages = conversation();
    const tool = messages[2]!;
    if (tool.role !== 'tool') throw new Error('unexpected conversation');
    delete tool.content[0]!.attachments;
    const body = await sent({ messages });
    expect(body.input[2]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'Captured.' });
  });

  it('refuses audio before sending, naming the part', async () => {
    const error = await failure(
      model().generate({ messages: only({ type: 'file', mediaType: 'audio/wav', data: WAV_BASE64 }) }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('messages[0].content[1] [file: audio/wav, 16 bytes]');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses media the model does not take (ModelInfo.inputMediaTypes) before sending', async () => {
    const text = model({ info: { inputMediaTypes: [] } });
    const error = await failure(text.generate({ messages: conversation() }));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('the model takes no images or files');
    expect(server.requests).toHaveLength(0);
  });
});
