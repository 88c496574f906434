/**
 * `fromAISDK` over the real `@ai-sdk/openai-compatible` of each AI SDK major
 * (spec v2, v3, v4) against a loopback server: images and files reach the
 * provider in the file-part shape of each spec version, and what the provider
 * cannot take is a `bad_request` before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/messages.js';
import { fromAISDK } from '../../../src/providers/ai-sdk/index.js';
import type { CallOptions, SpecModel } from '../../../src/providers/ai-sdk/types.js';
import { completion, MAJORS, type Major, realModel } from '../ai-sdk/real-providers.js';
import { respond, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';
import { conversation, fixture, PAGE, PDF_BASE64, PNG_BYTES, SCREENSHOT, userTurn } from './conversation.js';

const server = useFixtureServer();
const wire = fixture('ai-sdk');

// The user message without its PDF, which spec v2's openai-compatible provider cannot take.
function imagesOnly(): Message[] {
  const messages = conversation();
  const user = messages[0]!;
  if (user.role !== 'user' || typeof user.content === 'string') throw new Error('unexpected conversation');
  user.content = user.content.filter((part) => part.type !== 'file');
  const tool = messages[2]!;
  if (tool.role !== 'tool') throw new Error('unexpected conversation');
  tool.content[0]!.attachments = [SCREENSHOT];
  return messages;
}

describe.each(MAJORS)('fromAISDK images and files, spec $spec (ai $ai)', (major: Major) => {
  const model = () => realModel(major, server.url);

  it('sends user images as file parts and tool attachments as content output of this version', async () => {
    server.handle(respond(200, completion({ content: 'A cat.' })));
    await model().generate({ messages: imagesOnly() });
    const messages = server.lastRequest().body.messages;
    expect(messages[0]).toEqual(wire.user);
    // The provider has no place for tool-result media: it sends the content output as JSON text.
    expect(messages[2].role).toBe('tool');
    expect(JSON.parse(messages[2].content)).toEqual(wire.toolContent[major.spec]);
  });

  it('refuses a PDF by URL before sending (the provider takes PDFs as data only)', async () => {
    const user: Message = {
      role: 'user',
      content: [{ type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }],
    };
    const error = await failure(model().generate({ messages: [user] }));
    expect(error.kind).toBe('bad_request');
    expect(server.requests).toHaveLength(0);
  });
});

describe('fromAISDK files per spec version', () => {
  it('sends a PDF as a file part on v3 and v4, and refuses it before sending on v2', async () => {
    for (const major of MAJORS) {
      server.requests.splice(0);
      server.handle(respond(200, completion({ content: 'A report.' })));
      const request = { messages: [userTurn()] };
      if (major.spec === 'v2') {
        const error = await failure(realModel(major, server.url).generate(request));
        expect(error.kind).toBe('bad_request');
        expect(server.requests).toHaveLength(0);
        continue;
      }
      await realModel(major, server.url).generate(request);
      expect(server.lastRequest().body.messages[0].content.at(-1)).toEqual(wire.pdf);
    }
  });

  it('hands v4 models tagged data and URLs, and v2 models URLs as URL objects', async () => {
    const seen: Record<string, CallOptions> = {};
    const recording = (specificationVersion: string): SpecModel => ({
      specificationVersion,
      provider: 'rec',
      modelId: 'm',
      async doGenerate(options) {
        seen[specificationVersion] = options;
        return { content: [], finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
      },
      doStream: () => Promise.reject(new Error('unused')),
    });
    const request = { messages: [userTurn()] };
    await fromAISDK(recording('v4') as never).generate(request);
    await fromAISDK(recording('v2') as never).generate(request);
    const v4 = seen.v4!.prompt[0]!.content as unknown[];
    expect(v4.slice(1)).toEqual([
      { type: 'file', data: { type: 'data', data: PNG_BYTES }, mediaType: 'image/png' },
      {
        type: 'file',
        data: { type: 'url', url: new URL('https://example.com/cat.jpg') },
        mediaType: 'image/jpeg',
      },
      {
        type: 'file',
        data: { type: 'data', data: PDF_BASE64 },
        mediaType: 'application/pdf',
        filename: 'report.pdf',
      },
    ]);
    const v2 = seen.v2!.prompt[0]!.content as unknown[];
    expect(v2[2]).toEqual({
      type: 'file',
      data: new URL('https://example.com/cat.jpg'),
      mediaType: 'image/jpeg',
    });
  });

  it('refuses a tool attachment by URL on v2, whose tool results take media as data only', async () => {
    const messages = conversation();
    const tool = messages[2]!;
    if (tool.role !== 'tool') throw new Error('unexpected conversation');
    tool.content[0]!.attachments = [{ ...PAGE, data: undefined, url: 'https://example.com/page.pdf' }];
    server.requests.splice(0);
    const v2 = MAJORS.find((m) => m.spec === 'v2')!;
    const error = await failure(realModel(v2, server.url).generate({ messages }));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('attachment 0');
    expect(server.requests).toHaveLength(0);
  });
});
