import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { createGemini, type GeminiSettings } from '../../../src/providers/gemini/index.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';
import { conversation, fixture, only, WAV_BASE64 } from './conversation.js';

const server = useFixtureServer();

function gemini(settings?: GeminiSettings) {
  return createGemini({ apiKey: 'gm-test', baseURL: `${server.url}/v1beta` })('gemini-2.5-flash', settings);
}

async function sent(request: ModelRequest): Promise<any> {
  server.handle(serveFixture('gemini/generate-content-parallel-function-calls.json'));
  await gemini().generate(request);
  return server.lastRequest().body;
}

describe('Gemini images and files on the wire', () => {
  it('sends inlineData and fileData parts, and tool attachments next to the functionResponse', async () => {
    const body = await sent({ messages: conversation() });
    expect(body.contents).toEqual(fixture('gemini').contents);
  });

  it('sends audio as inlineData', async () => {
    const body = await sent({ messages: only({ type: 'file', mediaType: 'audio/wav', data: WAV_BASE64 }) });
    expect(body.contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'audio/wav', data: WAV_BASE64 } });
  });

  it('refuses an invalid part before sending, naming it', async () => {
    const error = await failure(
      gemini().generate({
        messages: only({
          type: 'image',
          mediaType: 'image/png',
          data: 'AAAA',
          url: 'https://example.com/x.png',
        }),
      }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('messages[0].content[1]');
    expect(error.message).toContain('exactly one of data and url');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses media the model does not take (ModelInfo.inputMediaTypes) before sending', async () => {
    const error = await failure(
      gemini({ info: { inputMediaTypes: ['image/*'] } }).generate({ messages: conversation() }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('messages[0].content[3] [file: application/pdf, report.pdf, 46 bytes]');
    expect(server.requests).toHaveLength(0);
  });
});
