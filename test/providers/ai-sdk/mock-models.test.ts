import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import type { Message } from '../../../src/core/messages.js';
import { collectStream } from '../../../src/model/stream.js';
import type { ModelRequest } from '../../../src/model/types.js';
import { fromAISDK } from '../../../src/providers/ai-sdk/index.js';
import type { AISDKLanguageModel } from '../../../src/providers/ai-sdk/types.js';
import { drain } from '../helpers.js';

type LanguageModelV2 = Extract<AISDKLanguageModel, { specificationVersion: 'v2' }>;
type LanguageModelV3 = Extract<AISDKLanguageModel, { specificationVersion: 'v3' }>;
type GenerateV3 = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type StreamPartV3 =
  Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type StreamPartV2 =
  Awaited<ReturnType<LanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usageV3 = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
  outputTokens: { total: 40, text: 10, reasoning: 30 },
};

function generated(
  content: GenerateV3['content'],
  unified: 'stop' | 'tool-calls' | 'length' = 'stop',
): GenerateV3 {
  return {
    content,
    finishReason: { unified, raw: unified },
    usage: usageV3,
    response: { id: 'resp_42' },
    warnings: [],
  };
}

const weatherTool = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('fromAISDK', () => {
  it('names the model aisdk:<provider>:<modelId>', () => {
    const model = fromAISDK(new MockLanguageModelV3({ provider: 'openai.responses', modelId: 'gpt-5' }));
    expect(model.id).toBe('aisdk:openai.responses:gpt-5');
    expect(fromAISDK(new MockLanguageModelV3(), { id: 'mine' }).id).toBe('mine');
  });

  it('rejects a model id string, a non-model and unknown specification versions with a ConfigError', () => {
    expect(() => fromAISDK('openai/gpt-5')).toThrow(ConfigError);
    expect(() => fromAISDK(null as never)).toThrow(ConfigError);
    for (const version of ['v1', 'v5']) {
      const model = {
        specificationVersion: version,
        provider: 'p',
        modelId: 'm',
      } as unknown as LanguageModelV3;
      expect(() => fromAISDK(model)).toThrow(ConfigError);
      expect(() => fromAISDK(model)).toThrow(`specification v2, v3 and v4, got ${version}`);
    }
  });

  it('puts the system prompt in system messages at the head of the prompt, never in a user message', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    await fromAISDK(mock).generate({
      system: [{ text: 'You are terse.', cache: true }, { text: 'Answer in English.' }],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const prompt = mock.doGenerateCalls[0]?.prompt;
    expect(prompt).toEqual([
      {
        role: 'system',
        content: 'You are terse.',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
  });

  it('passes tools, tool choice, response format, sampling, stop sequences, provider options and the signal', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: '{}' }]) });
    const controller = new AbortController();
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    await fromAISDK(mock).generate(
      {
        messages: [{ role: 'user', content: 'Go' }],
        tools: [weatherTool],
        toolChoice: { name: 'weather' },
        responseFormat: { type: 'json', schema, name: 'verdict' },
        temperature: 0.3,
        maxOutputTokens: 256,
        stop: ['END'],
        providerOptions: { openai: { reasoningEffort: 'low' } },
      },
      { signal: controller.signal },
    );
    const call = mock.doGenerateCalls[0];
    expect(call?.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Weather for a city',
        inputSchema: weatherTool.parameters,
      },
    ]);
    expect(call?.toolChoice).toEqual({ type: 'tool', toolName: 'weather' });
    expect(call?.responseFormat).toEqual({ type: 'json', schema, name: 'verdict' });
    expect(call?.temperature).toBe(0.3);
    expect(call?.maxOutputTokens).toBe(256);
    expect(call?.stopSequences).toEqual(['END']);
    expect(call?.providerOptions).toEqual({ openai: { reasoningEffort: 'low' } });
    expect(call?.abortSignal).toBe(controller.signal);
  });

  it('maps generated text, reasoning and tool calls back, skipping provider-executed calls', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: generated(
        [
          {
            type: 'reasoning',
            text: 'Need weather.',
            providerMetadata: { anthropic: { signature: 'sig-1' } },
          },
          { type: 'text', text: 'Checking.' },
          {
            type: 'tool-call',
            toolCallId: 'call_1',
            toolName: 'weather',
            input: '{"city":"Rome"}',
            providerMetadata: { google: { thoughtSignature: 'ts-1' } },
          },
          {
            type: 'tool-call',
            toolCallId: 'ws_1',
            toolName: 'web_search',
            input: '{}',
            providerExecuted: true,
          },
        ],
        'tool-calls',
      ),
    });
    const response = await fromAISDK(mock).generate({ messages: [{ role: 'user', content: 'Rome?' }] });
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'Need weather.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
      { type: 'text', text: 'Checking.' },
      {
        type: 'tool_call',
        id: 'call_1',
        name: 'weather',
        arguments: '{"city":"Rome"}',
        providerMetadata: { google: { thoughtSignature: 'ts-1' } },
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({
      inputTokens: 120,
      outputTokens: 40,
      cachedInputTokens: 100,
      reasoningTokens: 30,
    });
    expect(response.responseId).toBe('resp_42');
  });

  it('round-trips tool calls and results, replaying provider metadata as provider options', async () => {
    const history: Message[] = [
      { role: 'user', content: 'Rome?' },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'Need weather.',
            providerMetadata: { anthropic: { signature: 'sig-1' } },
          },
          {
            type: 'tool_call',
            id: 'call_1',
            name: 'weather',
            arguments: '{"city":"Rome"}',
            providerMetadata: { google: { thoughtSignature: 'ts-1' } },
          },
          { type: 'tool_call', id: 'call_2', name: 'weather', arguments: '{"city":' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_1', toolName: 'weather', content: 'sunny' },
          {
            type: 'tool_result',
            toolCallId: 'call_2',
            toolName: 'weather',
            content: 'bad args',
            isError: true,
          },
        ],
      },
    ];
    const mock = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'Sunny.' }]) });
    await fromAISDK(mock).generate({ messages: history, tools: [weatherTool] });
    expect(mock.doGenerateCalls[0]?.prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'Need weather.',
            providerOptions: { anthropic: { signature: 'sig-1' } },
          },
          {
            type: 'tool-call',
            toolCallId: 'call_1',
            toolName: 'weather',
            input: { city: 'Rome' },
            providerOptions: { google: { thoughtSignature: 'ts-1' } },
          },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'weather', input: '{"city":' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'weather',
            output: { type: 'text', value: 'sunny' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'weather',
            output: { type: 'error-text', value: 'bad args' },
          },
        ],
      },
    ]);
  });

  it('streams text, reasoning and tool input from a v3 model and aggregates them', async () => {
    const chunks: StreamPartV3[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'resp_7', modelId: 'mock' },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'Think' },
      {
        type: 'reasoning-delta',
        id: 'r1',
        delta: 'ing',
        providerMetadata: { anthropic: { signature: 'sig' } },
      },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Let me ' },
      { type: 'text-delta', id: 't1', delta: 'check.' },
      { type: 'text-end', id: 't1' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'weather' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"city":' },
      { type: 'tool-input-delta', id: 'call_1', delta: '"Rome"}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Rome"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usageV3 },
    ];
    const mock = new MockLanguageModelV3({ doStream: { stream: convertArrayToReadableStream(chunks) } });
    const model = fromAISDK(mock);
    const request: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Rome?' }] };
    const parts = await drain(model.stream!(request));
    expect(parts).toEqual([
      { type: 'reasoning-delta', id: 'r1', delta: 'Think' },
      {
        type: 'reasoning-delta',
        id: 'r1',
        delta: 'ing',
        providerMetadata: { anthropic: { signature: 'sig' } },
      },
      { type: 'text-delta', id: 't1', delta: 'Let me ' },
      { type: 'text-delta', id: 't1', delta: 'check.' },
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'weather', argsDelta: '' },
      { type: 'tool-call-delta', index: 0, argsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argsDelta: '"Rome"}' },
      { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}', index: 0 },
      {
        type: 'finish',
        finishReason: 'tool_calls',
        usage: { inputTokens: 120, outputTokens: 40, cachedInputTokens: 100, reasoningTokens: 30 },
        responseId: 'resp_7',
      },
    ]);
    expect(mock.doStreamCalls[0]?.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const response = await collectStream(
      (async function* () {
        yield* parts;
      })(),
    );
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'Thinking', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' },
    ]);
  });

  it('reads a v2 model: numeric usage, string finish reasons, streamed and generated', async () => {
    const usageV2 = {
      inputTokens: 50,
      outputTokens: 9,
      totalTokens: 59,
      cachedInputTokens: 32,
      reasoningTokens: 4,
    };
    const chunks: StreamPartV2[] = [
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Truncat' },
      { type: 'finish', finishReason: 'length', usage: usageV2 },
    ];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy',
      modelId: 'old-1',
      supportedUrls: {},
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'Truncat' }],
        finishReason: 'length',
        usage: usageV2,
        warnings: [],
      }),
      doStream: async () => ({ stream: convertArrayToReadableStream(chunks) }),
    };
    const model = fromAISDK(v2);
    expect(model.id).toBe('aisdk:legacy:old-1');
    const expectedUsage = { inputTokens: 50, outputTokens: 9, cachedInputTokens: 32, reasoningTokens: 4 };
    const generatedResponse = await model.generate({ messages: [{ role: 'user', content: 'Go' }] });
    expect(generatedResponse.finishReason).toBe('length');
    expect(generatedResponse.usage).toEqual(expectedUsage);
    const parts = await drain(model.stream!({ messages: [{ role: 'user', content: 'Go' }] }));
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'length', usage: expectedUsage });
  });

  it('counts missing usage as zero', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: {
        ...generated([{ type: 'text', text: 'x' }]),
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
      },
    });
    const response = await fromAISDK(mock).generate({ messages: [{ role: 'user', content: 'Go' }] });
    expect(response.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });
});
