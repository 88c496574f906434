/**
 * What spec v4 (`ai` 7) adds over v3, on a hand-made v4 model typed by the
 * real v4 provider package: the `interrupted` finish reason,
 * `structuredOutputText`, and content and stream parts tandem skips.
 */

import { convertArrayToReadableStream } from 'ai/test';
import type { OpenAICompatibleChatLanguageModel } from 'ai-provider-v4';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { fromAISDK } from '../../../src/providers/ai-sdk/index.js';
import { drain, failure } from '../helpers.js';

type ModelV4 = Pick<
  OpenAICompatibleChatLanguageModel,
  'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls' | 'doGenerate' | 'doStream'
>;
type GenerateV4 = Awaited<ReturnType<ModelV4['doGenerate']>>;
type StreamPartV4 =
  Awaited<ReturnType<ModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage: GenerateV4['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const ASK: ModelRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const JSON_ASK: ModelRequest = { ...ASK, responseFormat: { type: 'json' } };

function v4Model(result: Partial<GenerateV4>, parts: StreamPartV4[] = []) {
  const model: ModelV4 = {
    specificationVersion: 'v4',
    provider: 'next',
    modelId: 'm4',
    supportedUrls: {},
    doGenerate: async () => ({
      content: [],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
      ...result,
    }),
    doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
  };
  // `ai` 6 (the dev dependency) has no v4 in `LanguageModel`; `ai` 7's has.
  return fromAISDK(model as never);
}

const finish = (unified: 'stop' | 'interrupted'): StreamPartV4 => ({
  type: 'finish',
  finishReason: { unified, raw: undefined },
  usage,
});

describe('fromAISDK, spec v4 specifics', () => {
  it('fails an interrupted reply with a retryable connection error, generated and streamed', async () => {
    const model = v4Model(
      { content: [{ type: 'text', text: 'Hal' }], finishReason: { unified: 'interrupted', raw: undefined } },
      [{ type: 'text-delta', id: 't', delta: 'Hal' }, finish('interrupted')],
    );
    const generated = await failure(model.generate(ASK));
    expect([generated.kind, generated.retryable]).toEqual(['connection', true]);
    const seen = await failure(drain(model.stream!(ASK)));
    expect([seen.kind, seen.retryable]).toEqual(['connection', true]);
  });

  it('takes structuredOutputText as the text of a JSON reply, in place of the drafts', async () => {
    const model = v4Model({
      content: [
        { type: 'reasoning', text: 'Plan.' },
        { type: 'text', text: 'Draft: {"ok":' },
        { type: 'text', text: '{"ok":true}' },
      ],
      structuredOutputText: '{"ok":true}',
    });
    const response = await model.generate(JSON_ASK);
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: '{"ok":true}' },
    ]);
  });

  it('keeps every text part when the request did not ask for JSON, and honours an empty structured text', async () => {
    const content: GenerateV4['content'] = [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ];
    const plain = await v4Model({ content, structuredOutputText: 'b' }).generate(ASK);
    expect(plain.message.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    const empty = await v4Model({ content, structuredOutputText: '' }).generate(JSON_ASK);
    expect(empty.message.content).toEqual([]);
  });

  it('skips the content and stream parts v4 adds (custom, reasoning-file, ping, citations)', async () => {
    const file = {
      type: 'reasoning-file',
      mediaType: 'image/png',
      data: { type: 'url', url: new URL('https://x.test/a.png') },
    } as const;
    const model = v4Model(
      {
        content: [{ type: 'custom', kind: 'next.marker' }, file, { type: 'text', text: 'Hi', citations: [] }],
      },
      [
        { type: 'ping' },
        { type: 'custom', kind: 'next.marker' },
        file,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'text-end', id: 't', citations: [] },
        finish('stop'),
      ],
    );
    expect((await model.generate(ASK)).message.content).toEqual([{ type: 'text', text: 'Hi' }]);
    const parts = await drain(model.stream!(ASK));
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
  });
});
