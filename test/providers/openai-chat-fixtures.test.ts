import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';
import { drain, fixtureReplies, rejectionOf } from './helpers.js';

const server = useFixtureServer();
const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

function model() {
  return createOpenAI({ baseURL: `${server.get().url}/v1`, apiKey: 'sk-test' })('test-model');
}

const { streamed, generated } = fixtureReplies(server, model, HELLO);

function joined(parts: ModelStreamPart[], type: 'text-delta' | 'reasoning-delta'): string {
  return parts.map((p) => (p.type === type ? p.delta : '')).join('');
}

// Independent of the adapter: the concatenated deltas of a fixture, read from the file.
function deltasOf(file: string, field: 'content' | 'reasoning_content'): string {
  return OWN_FIXTURES.events(file)
    .map((chunk) => chunk.choices?.[0]?.delta?.[field] ?? '')
    .join('');
}

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, reasoningTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens,
});

async function streamFailure(file: string): Promise<{ error: ModelError; parts: ModelStreamPart[] }> {
  server.get().handle(serveFixture(file));
  const parts: ModelStreamPart[] = [];
  const error = await rejectionOf(drain(model().stream(HELLO), parts));
  expect(error).toBeInstanceOf(ModelError);
  return { error, parts };
}

describe('OpenAI Chat streams', () => {
  it('streams text and takes usage from the final choices:[] chunk past usage:null and obfuscation', async () => {
    const { parts, response } = await streamed('openai-chat/stream-text-usage.sse');
    expect(joined(parts, 'text-delta')).toBe('The capital of France is Paris.');
    expect(response.message.content).toEqual([{ type: 'text', text: 'The capital of France is Paris.' }]);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual(usage(14, 8));
    expect(response.responseId).toBe('chatcmpl-TdmOwn0001TextUsage');
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('joins multi-byte text deltas split mid-UTF-8 across TCP chunks', async () => {
    const file = 'openai-chat/stream-text-multibyte.chunks.jsonl';
    for (const chunkSize of [5, 97]) {
      const { response } = await streamed(file, { chunkSize });
      const text = (response.message.content[0] as { text: string }).text;
      expect(text).toBe(deltasOf(file, 'content'));
      expect(text).toContain('Zürich');
      expect(text).toContain('東京');
      expect(text.endsWith('🍓🍓.')).toBe(true);
      expect(response.usage).toEqual(usage(21, 45));
    }
  });

  it('skips the Azure prompt-filter chunk with an empty id and stops with content_filter', async () => {
    const { response } = await streamed('openai-chat/azure-stream-content-filter.chunks.jsonl');
    expect(response.message.content).toEqual([{ type: 'text', text: 'The duel ended when' }]);
    expect(response.responseId).toBe('chatcmpl-TdmOwn0004AzureFilter');
    expect(response.finishReason).toBe('content_filter');
    expect(response.usage).toEqual(usage(0, 0));
  });

  it('assembles parallel tool calls from fragments split mid-key, also in 13-byte pieces', async () => {
    const file = 'openai-chat/stream-parallel-tool-calls.sse';
    const whole = await streamed(file);
    const split = await streamed(file, { chunkSize: 13 });
    expect(split.parts).toEqual(whole.parts);
    const deltas = whole.parts.filter((p) => p.type === 'tool-call-delta');
    expect(deltas.map((p) => p.index)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1]);
    expect(whole.response.message.content).toEqual([
      {
        type: 'tool_call',
        id: 'call_TdmWeatherParis01',
        name: 'get_weather',
        arguments: '{"city": "Paris", "unit": "c"}',
      },
      { type: 'tool_call', id: 'call_TdmTimeParis02', name: 'get_time', arguments: '{"tz": "Europe/Paris"}' },
    ]);
    expect(whole.response.finishReason).toBe('tool_calls');
    expect(whole.response.usage).toEqual(usage(96, 47));
  });

  it('throws the error a normal chunk carries after SSE comments, as bad_request once output began', async () => {
    const { error, parts } = await streamFailure('openai-compatible/openrouter-stream-inline-error.sse');
    expect(joined(parts, 'reasoning-delta')).toBe('The user greets me.');
    expect(error.message).toBe('Token limit reached');
    expect(error.status).toBe(400);
    // Output was already produced: this is the output budget, not a rejected prompt.
    expect(error.kind).toBe('bad_request');
  });

  it('throws an `event: error` frame as a retryable invalid_response with the status it names', async () => {
    const { error, parts } = await streamFailure('openai-compatible/groq-stream-error-event.sse');
    expect(joined(parts, 'reasoning-delta')).toBe('Call lookup with an id.');
    expect(error.kind).toBe('invalid_response');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^tool call validation failed: parameters for tool lookup/);
  });

  it('streams DeepSeek reasoning_content before the answer, with reasoning tokens', async () => {
    const file = 'openai-compatible/deepseek-stream-reasoning-content.chunks.jsonl';
    const { response } = await streamed(file);
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: deltasOf(file, 'reasoning_content') },
      { type: 'text', text: 'A leap year has **366** days.' },
    ]);
    expect(deltasOf(file, 'reasoning_content')).toMatch(/^The user asks how many days .* so 366\.$/);
    expect(response.usage).toEqual(usage(17, 41, 0, 30));
    expect(response.finishReason).toBe('stop');
  });

  it('streams reasoning, then a tool call in 3-character pieces, reading prompt_cache_hit_tokens as cached', async () => {
    const { response } = await streamed('openai-compatible/deepseek-stream-reasoning-tool-call.chunks.jsonl');
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'The user wants the weather in Oslo. I will call get_weather.' },
      {
        type: 'tool_call',
        id: 'call_00_TdmOsloWeather01',
        name: 'get_weather',
        arguments: '{"city": "Oslo"}',
      },
    ]);
    expect(response.usage).toEqual(usage(210, 38, 192, 14));
    expect(response.finishReason).toBe('tool_calls');
  });

  it('takes whole tool calls from one chunk each and keeps the first id when the chunk id changes', async () => {
    const { response } = await streamed('openai-compatible/kimi-stream-whole-tool-calls.sse');
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'Need weather and time for Lima.' },
      { type: 'text', text: 'Checking both now.' },
      {
        type: 'tool_call',
        id: 'functions.get_weather:0',
        name: 'get_weather',
        arguments: '{"city": "Lima"}',
      },
      {
        type: 'tool_call',
        id: 'functions.get_time:1',
        name: 'get_time',
        arguments: '{"tz": "America/Lima"}',
      },
    ]);
    expect(response.responseId).toBe('chatcmpl-tdmkimi0001');
    expect(response.usage).toEqual(usage(143, 61, 128, 12));
    expect(response.finishReason).toBe('tool_calls');
  });

  it('keeps the first tool-call id when later fragments repeat id:"", and reads the separate usage chunk', async () => {
    const { response } = await streamed('openai-compatible/qwen-stream-tool-call.chunks.jsonl');
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_tdmqwen7f3a9c', name: 'get_weather', arguments: '{"city": "Hangzhou"}' },
    ]);
    expect(response.usage).toEqual(usage(260, 21));
    expect(response.finishReason).toBe('tool_calls');
  });
});

describe('OpenAI Chat non-streaming replies', () => {
  it('maps a text completion with cached prompt tokens', async () => {
    const response = await generated('openai-chat/nonstream-text.json');
    expect(response).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: 'Paris is the capital of France.' }] },
      finishReason: 'stop',
      usage: usage(1290, 8, 1152),
      responseId: 'chatcmpl-TdmOwn0005Text',
    });
    expect(server.get().lastRequest().body.stream).toBeUndefined();
  });

  it('maps parallel tool calls with null content', async () => {
    const response = await generated('openai-chat/nonstream-parallel-tool-calls.json');
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_TdmWeatherRome01', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { type: 'tool_call', id: 'call_TdmTimeRome02', name: 'get_time', arguments: '{"tz":"Europe/Rome"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(88, 51));
  });

  it('reports finish_reason length', async () => {
    const response = await generated('openai-chat/nonstream-length.json');
    expect(response.finishReason).toBe('length');
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Once upon a time, a lighthouse keeper counted' },
    ]);
  });

  it('puts reasoning_content before the answer', async () => {
    const response = await generated('openai-compatible/deepseek-nonstream-reasoning.json');
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: 'Spell it: b-a-l-l-o-o-n. The letter o appears twice. So the answer is 2.',
      },
      { type: 'text', text: 'There are 2 "o"s in "balloon".' },
    ]);
    expect(response.usage).toEqual(usage(15, 52, 0, 40));
  });

  it('maps reasoning, text and a tool call of one reply, with cached tokens', async () => {
    const response = await generated('openai-compatible/glm-nonstream-reasoning-tool-call.json');
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: 'The user asks about Kyoto weather; call get_weather with city Kyoto.' },
      { type: 'text', text: 'Let me look up the weather in Kyoto.' },
      {
        type: 'tool_call',
        id: 'call_-8812000000000000001',
        name: 'get_weather',
        arguments: '{"city":"Kyoto"}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(180, 44, 160, 17));
  });
});
