import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/core/errors.js';
import { createOpenAIImageModel } from '../../../src/providers/openai/index.js';
import { imageGenerationSkill } from '../../../src/skills/builtin/index.js';
import { type SkillError, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedImageModel, TINY_PNG_BASE64 } from '../../../src/testing/index.js';
import { recorder } from '../helpers.js';
import { SANDBOXES, stages, withSandbox } from './helpers.js';

type ImagesOut = {
  model: string;
  artifacts: { path: string; mediaType: string; size: number }[];
  images: { type: 'image'; mediaType: string; data: string; filename?: string }[];
  revisedPrompts: string[];
};

const PNG = Buffer.from(TINY_PNG_BASE64, 'base64');

/** A loopback server: `/img.png` serves a PNG; `/v1/images/generations` answers with `reply(body)`. */
let server: Server;
let base = '';
const seen: { body: any; headers: IncomingMessage['headers'] }[] = [];
let reply: (body: any) => { status: number; json: unknown } = () => ({ status: 500, json: {} });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/img.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      if (req.url !== '/v1/images/generations') {
        res.writeHead(404);
        return res.end();
      }
      const body = JSON.parse(text);
      seen.push({ body, headers: req.headers });
      const { status, json } = reply(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each(SANDBOXES)('image_generation on a %s sandbox', (kind) => {
  it('writes every image as a file artifact — base64 data, and a URL it downloads — and inlines them', async () => {
    const model = new ScriptedImageModel([
      {
        images: [
          { mediaType: 'image/png', data: TINY_PNG_BASE64, revisedPrompt: 'a red lighthouse at dawn' },
          { mediaType: 'image/png', url: `${base}/img.png` },
        ],
      },
    ]);
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({ skills: [imageGenerationSkill({ model })], runtime });
    const { out, files } = await withSandbox(kind, async (sandbox) => {
      const out = await skills.invokeDirect<ImagesOut>(
        'image_generation',
        { prompt: 'a lighthouse', n: 2 },
        { emit: bus, sandbox },
      );
      const files = await Promise.all(out.artifacts.map((a) => sandbox.readBytes!(a.path)));
      return { out, files };
    });
    expect(model.requests).toEqual([{ prompt: 'a lighthouse', n: 2 }]);
    expect(out.artifacts.map((a) => a.path.split('/').pop())).toEqual(['image-1.png', 'image-2.png']);
    expect(out.artifacts.every((a) => a.mediaType === 'image/png' && a.size === PNG.length)).toBe(true);
    expect(files.map((f) => Buffer.from(f).equals(PNG))).toEqual([true, true]);
    expect(out.images.map((i) => i.data)).toEqual([TINY_PNG_BASE64, TINY_PNG_BASE64]);
    expect(out.revisedPrompts).toEqual(['a red lighthouse at dawn']);
    expect(stages(events)).toEqual([
      'generate:running',
      'generate:completed',
      'save:running',
      'save:completed',
    ]);
  });
});

describe('image_generation', () => {
  it('fails with download_failed when an image URL does not answer', async () => {
    const model = new ScriptedImageModel([
      { images: [{ mediaType: 'image/png', url: `${base}/missing.png` }] },
    ]);
    const skills = new SkillRegistry({ skills: [imageGenerationSkill({ model })] });
    const error = await withSandbox('local', (sandbox) =>
      skills.invokeDirect('image_generation', { prompt: 'x' }, { sandbox }).catch((e: unknown) => e),
    );
    expect((error as SkillError).cause).toMatchObject({ kind: 'download_failed' });
    expect((error as Error).message).toContain('HTTP 404');
  });

  it('runs on the OpenAI Images adapter end to end', async () => {
    reply = () => ({ status: 200, json: { created: 1, data: [{ b64_json: TINY_PNG_BASE64 }] } });
    const model = createOpenAIImageModel('gpt-image-1', { baseURL: `${base}/v1`, apiKey: 'k' });
    const skills = new SkillRegistry({ skills: [imageGenerationSkill({ model })] });
    const out = await withSandbox('local', (sandbox) =>
      skills.invokeDirect<ImagesOut>('image_generation', { prompt: 'a fox', size: '1024x1024' }, { sandbox }),
    );
    expect(out.model).toBe('openai:gpt-image-1');
    expect(out.artifacts).toHaveLength(1);
    expect(seen.at(-1)?.body).toEqual({ model: 'gpt-image-1', prompt: 'a fox', n: 1, size: '1024x1024' });
  });
});

describe('OpenAI Images adapter', () => {
  it('posts the request body with the key and settings, and parses b64_json, revised prompts and usage', async () => {
    reply = () => ({
      status: 200,
      json: {
        created: 1,
        output_format: 'webp',
        data: [{ b64_json: 'AAAA', revised_prompt: 'a fox, watercolour' }],
        usage: { input_tokens: 12, output_tokens: 4160, total_tokens: 4172 },
      },
    });
    const model = createOpenAIImageModel('gpt-image-1', {
      baseURL: `${base}/v1/`,
      apiKey: 'sk-test',
      settings: { quality: 'low', outputFormat: 'webp', extra: { background: 'transparent' } },
    });
    const response = await model.generate({
      prompt: 'a fox',
      n: 2,
      providerOptions: { openai: { moderation: 'low' } },
    });
    expect(seen.at(-1)?.body).toEqual({
      background: 'transparent',
      model: 'gpt-image-1',
      prompt: 'a fox',
      n: 2,
      quality: 'low',
      output_format: 'webp',
      moderation: 'low',
    });
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer sk-test');
    expect(response.images).toEqual([
      { mediaType: 'image/webp', data: 'AAAA', revisedPrompt: 'a fox, watercolour' },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 12, outputTokens: 4160 });
  });

  it('asks DALL·E for URLs with response_format and parses url replies', async () => {
    reply = () => ({
      status: 200,
      json: {
        created: 1,
        data: [{ url: 'https://cdn.example/a.png' }, { url: 'https://cdn.example/b.png' }],
      },
    });
    const model = createOpenAIImageModel('dall-e-3', {
      baseURL: `${base}/v1`,
      settings: { responseFormat: 'url', size: '1792x1024' },
    });
    const response = await model.generate({ prompt: 'a city' });
    expect(seen.at(-1)?.body).toEqual({
      model: 'dall-e-3',
      prompt: 'a city',
      size: '1792x1024',
      response_format: 'url',
    });
    expect(response).toEqual({
      images: [
        { mediaType: 'image/png', url: 'https://cdn.example/a.png' },
        { mediaType: 'image/png', url: 'https://cdn.example/b.png' },
      ],
      usage: undefined,
    });
    expect(model.id).toBe('openai:dall-e-3');
  });

  it('maps an error status to a typed ModelError, and a reply without images to invalid_response', async () => {
    const model = createOpenAIImageModel('gpt-image-1', { baseURL: `${base}/v1` });
    reply = () => ({
      status: 400,
      json: {
        error: {
          message: 'Your request was rejected by the safety system.',
          code: 'content_policy_violation',
        },
      },
    });
    await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({
      kind: 'content_filter',
      status: 400,
    });
    reply = () => ({ status: 429, json: { error: { message: 'slow down' } } });
    await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({ kind: 'rate_limit' });
    reply = () => ({ status: 200, json: { created: 1, data: [] } });
    const error = await model.generate({ prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'invalid_response' });
  });
});
