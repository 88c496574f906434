/**
 * Known provider limits on images and files are checked before sending: an
 * empty image, an Anthropic image over 5 MB, OpenAI's per-image and
 * per-request limits, Gemini's inline limits. Each refusal is a
 * `bad_request` naming the part and the limit, and no request reaches the
 * (loopback) server.
 */
import { describe, expect, it } from 'vitest';
import type { MediaPart } from '../../../src/core/messages.js';
import type { ChatModel, ModelRequest } from '../../../src/model/types.js';
import { createAnthropic } from '../../../src/providers/anthropic/index.js';
import { createGemini } from '../../../src/providers/gemini/index.js';
import { createOpenAI } from '../../../src/providers/openai/index.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure } from '../helpers.js';

const server = useFixtureServer();
const MB = 1024 * 1024;

function png(bytes: number): MediaPart {
  return { type: 'image', mediaType: 'image/png', data: new Uint8Array(bytes) };
}

function ask(...parts: MediaPart[]): ModelRequest {
  return { messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, ...parts] }] };
}

const claude = () =>
  createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })('claude-sonnet-4-5', {
    cache: false,
  });
const gemini = () => createGemini({ apiKey: 'gm-test', baseURL: `${server.url}/v1beta` })('gemini-2.5-flash');

/** OpenAI's own API as the model sees it (its default base URL), answered by the loopback server. */
function openaiFetch(): typeof fetch {
  return (input, init) => fetch(String(input).replace('https://api.openai.com', server.url), init);
}
const gpt = () => createOpenAI({ apiKey: 'sk-test', fetch: openaiFetch() })('gpt-4o');
const gptResponses = () => createOpenAI({ apiKey: 'sk-test', fetch: openaiFetch() }).responses('gpt-4.1');

async function refused(model: ChatModel, request: ModelRequest): Promise<string> {
  const error = await failure(model.generate(request));
  expect(error.kind).toBe('bad_request');
  expect(server.requests).toHaveLength(0);
  return error.message;
}

describe('media limits checked before sending', () => {
  it('refuses an image of 0 bytes on every provider', async () => {
    for (const model of [claude(), gemini(), gpt(), gptResponses()]) {
      const message = await refused(model, ask(png(0)));
      expect(message).toContain('messages[0].content[1]');
      expect(message).toContain('it is empty (0 bytes)');
    }
    const empty: MediaPart = { type: 'file', mediaType: 'application/pdf', data: '' };
    expect(await refused(claude(), ask(empty))).toContain('it is empty (0 bytes)');
  });

  it('refuses an Anthropic image over 5 MB as base64, and sends one under it', async () => {
    const message = await refused(claude(), ask(png(3 * MB), png(4 * MB)));
    expect(message).toContain('messages[0].content[2]');
    expect(message).toContain('it is 5.3 MB as base64; Anthropic takes images up to 5 MB as base64');
    server.handle(serveFixture('anthropic/nonstream-parallel-tool-use.json'));
    await claude().generate(ask(png(3.5 * MB)));
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an Anthropic request whose inline data passes 32 MB, naming the part that crosses it', async () => {
    const parts = Array.from({ length: 7 }, () => png(3.5 * MB));
    const message = await refused(claude(), ask(...parts));
    expect(message).toContain('messages[0].content[7]');
    expect(message).toContain(
      "the request's inline data come to 32.7 MB as base64; Anthropic takes up to 32 MB",
    );
  });

  it('refuses an OpenAI image over 20 MB and images over 50 MB in one request, on both APIs', async () => {
    for (const model of [gpt(), gptResponses()]) {
      expect(await refused(model, ask(png(21 * MB)))).toContain(
        'it is 21 MB; OpenAI takes images up to 20 MB',
      );
      const message = await refused(model, ask(png(18 * MB), png(18 * MB), png(18 * MB)));
      expect(message).toContain('messages[0].content[3]');
      expect(message).toContain(
        "the request's images come to 54 MB; OpenAI takes up to 50 MB of images per request",
      );
    }
  });

  it('refuses the 501st image of an OpenAI request, URLs included', async () => {
    const url: MediaPart = { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' };
    const message = await refused(gptResponses(), ask(...Array.from({ length: 501 }, () => url)));
    expect(message).toContain('it is image 501 of the request; OpenAI takes up to 500 images per request');
  });

  it("keeps OpenAI's limits off a compatible server, whose own are not known", async () => {
    server.handle(serveFixture('openai-chat/nonstream-text.json'));
    await createOpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` })('qwen3-vl').generate(
      ask(png(21 * MB)),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('refuses Gemini inline data over 100 MB per request and an inline PDF over 50 MB, as base64', async () => {
    const pdf: MediaPart = { type: 'file', mediaType: 'application/pdf', data: new Uint8Array(38 * MB) };
    expect(await refused(gemini(), ask(pdf))).toContain(
      'it is 50.7 MB as base64; Gemini takes PDFs up to 50 MB as base64',
    );
    const message = await refused(gemini(), ask(png(30 * MB), png(48 * MB)));
    expect(message).toContain('messages[0].content[2]');
    expect(message).toContain(
      "the request's inline data come to 104 MB as base64; Gemini takes up to 100 MB",
    );
  });
});
