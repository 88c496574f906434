import { describe, expect, it } from 'vitest';
import type { Message, ReasoningPart } from '../../src/core/messages.js';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { createOpenAIResponsesModel } from '../../src/providers/openai/responses.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';
import { drain, failure, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function model(modelId: string): StreamingModel {
  return createOpenAIResponsesModel(
    { provider: 'openai', baseURL: `${server.url}/v1`, headers: () => ({ authorization: 'Bearer sk-test' }) },
    modelId,
  ) as StreamingModel;
}

function streamOf(file: string, modelId: string, serve: { chunkSize?: number } = {}) {
  server.handle(serveFixture(file, serve));
  return drain(model(modelId).stream(ask));
}

function replay(parts: ModelStreamPart[]) {
  return collectStream(
    (async function* () {
      yield* parts;
    })(),
  );
}

const ask: ModelRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
};

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, reasoningTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens,
});

describe('OpenAI Responses streams', () => {
  it('streams output_text deltas keyed by their item and sends the system prompt as instructions', async () => {
    const parts = await streamOf('openai-responses/stream-text.sse', 'gpt-4.1-mini');
    const texts = parts.filter((p) => p.type === 'text-delta');
    expect(texts.map((p) => p.delta).join('')).toBe('The capital of France is Paris.');
    expect(texts.every((p) => p.id === 'msg_TdmOwnText0001')).toBe(true);
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: usage(24, 8),
      responseId: 'resp_TdmOwnText0001',
    });
    const request = server.lastRequest();
    expect(request.url).toBe('/v1/responses');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.headers.accept).toBe('text/event-stream');
    expect(request.body).toMatchObject({ instructions: 'You are terse.', stream: true });
    expect(request.body.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] },
    ]);
    expect(request.rawBody).not.toContain('"role":"system"');
    expect(request.rawBody).not.toContain('"role":"developer"');
  });

  it('streams function_call_arguments deltas, then the whole call', async () => {
    expect(await streamOf('openai-responses/stream-function-call.sse', 'gpt-4o')).toEqual([
      {
        type: 'tool-call-delta',
        index: 0,
        id: 'call_TdmOwnCapitalFR01',
        name: 'get_capital',
        argsDelta: '',
      },
      ...['{"', 'country', '":"', 'Fra', 'nce', '"}'].map((argsDelta) => ({
        type: 'tool-call-delta',
        index: 0,
        argsDelta,
      })),
      {
        type: 'tool-call',
        id: 'call_TdmOwnCapitalFR01',
        name: 'get_capital',
        arguments: '{"country":"France"}',
        index: 0,
      },
      {
        type: 'finish',
        finishReason: 'tool_calls',
        usage: usage(251, 18),
        responseId: 'resp_TdmOwnFunctionCall0002',
      },
    ]);
  });

  it('keeps interleaved parallel calls apart by output_index, after an unsummarised reasoning item', async () => {
    const response = await replay(
      await streamOf('openai-responses/stream-parallel-function-calls.sse', 'gpt-5'),
    );
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: '',
        redacted: 'gAAAAABpTdmOwnEncryptedParallel0003==',
        providerMetadata: { openai: { itemId: 'rs_TdmOwnParallel0003' } },
      },
      { type: 'tool_call', id: 'call_TdmOwnWeatherBern1', name: 'get_weather', arguments: '{"city":"Bern"}' },
      {
        type: 'tool_call',
        id: 'call_TdmOwnTimeBern0002',
        name: 'get_time',
        arguments: '{"tz":"Europe/Zurich"}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(112, 210, 0, 128));
  });

  it('captures the reasoning summary and the encrypted content of output_item.done, not of .added', async () => {
    const response = await replay(
      await streamOf('openai-responses/stream-reasoning-summary-tool-call.sse', 'gpt-5'),
    );
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: '**Choosing a tool**\n\nThe user asks for the weather in Lisbon; get_weather fits.',
        redacted: 'gAAAAABpTdmOwnDoneVersion0004ReEncrypted==',
        providerMetadata: { openai: { itemId: 'rs_TdmOwnSummaryTool0004' } },
      },
      {
        type: 'tool_call',
        id: 'call_TdmOwnLisbonWeather',
        name: 'get_weather',
        arguments: '{"city":"Lisbon"}',
      },
    ]);
    expect(response.usage).toEqual(usage(70, 130, 0, 64));
    expect(server.lastRequest().body.include).toEqual(['reasoning.encrypted_content']);
    expect(server.lastRequest().body.store).toBe(false);
  });

  it('replays the streamed reasoning item, call and result in order on the next turn', async () => {
    const first = await replay(
      await streamOf('openai-responses/stream-reasoning-summary-tool-call.sse', 'gpt-5'),
    );
    const messages: Message[] = [
      ...ask.messages,
      first.message,
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_TdmOwnLisbonWeather',
            toolName: 'get_weather',
            content: '21°C',
          },
        ],
      },
    ];
    server.handle(serveFixture('openai-responses/stream-text.sse'));
    await collectStream(model('gpt-5').stream({ ...ask, messages }));
    const reasoning = first.message.content[0] as ReasoningPart;
    expect(server.lastRequest().body.input.slice(1)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_TdmOwnSummaryTool0004',
        summary: [{ type: 'summary_text', text: reasoning.text }],
        encrypted_content: 'gAAAAABpTdmOwnDoneVersion0004ReEncrypted==',
      },
      {
        type: 'function_call',
        call_id: 'call_TdmOwnLisbonWeather',
        name: 'get_weather',
        arguments: '{"city":"Lisbon"}',
      },
      { type: 'function_call_output', call_id: 'call_TdmOwnLisbonWeather', output: '21°C' },
    ]);
  });

  it('keeps each summary part a reasoning block of its own, even in 7-byte pieces', async () => {
    const file = 'openai-responses/stream-reasoning-summary-multipart.sse';
    const parts = await streamOf(file, 'o4-mini', { chunkSize: 7 });
    const response = await replay(parts);
    const summaries = OWN_FIXTURES.events(file)
      .filter((e) => e.type === 'response.reasoning_summary_text.done')
      .map((e) => e.text);
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: summaries[0],
        providerMetadata: { openai: { itemId: 'rs_TdmOwnSummaryText0005' } },
      },
      {
        type: 'reasoning',
        text: summaries[1],
        redacted: 'gAAAAABpTdmOwnSummaryText0005==',
        providerMetadata: { openai: { itemId: 'rs_TdmOwnSummaryText0005' } },
      },
      { type: 'text', text: 'Rain on the tin roof —\nlistening.' },
    ]);
    expect(summaries).toEqual([
      '**Reading the question**\n\nA haiku has three lines.',
      '**Counting syllables**\n\nFive, seven, five.',
    ]);
    expect(response.usage).toEqual(usage(15, 240, 0, 192));
  });

  it('turns an insufficient_quota error event into a non-retryable rate_limit', async () => {
    const error = await failure(
      streamOf('openai-responses/stream-error-insufficient-quota.chunks.jsonl', 'gpt-5-nano'),
    );
    expect(error).toMatchObject({
      kind: 'rate_limit',
      retryable: false,
      status: undefined,
      model: 'openai:gpt-5-nano',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    });
  });

  it('reads an error event with top-level code and message (the documented shape)', async () => {
    const error = await failure(streamOf('openai-responses/stream-error-context-length.sse', 'gpt-4.1'));
    expect(error.kind).toBe('context_length');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
    );
  });
});

describe('OpenAI Responses non-streamed replies', () => {
  it('parses a response object with encrypted reasoning and replays that reasoning', async () => {
    server.handle(serveFixture('openai-responses/nonstream-reasoning-encrypted.json'));
    const m = model('gpt-5-mini');
    const response = await m.generate(ask);
    expect(server.lastRequest().body).toMatchObject({
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(server.lastRequest().body.stream).toBeUndefined();
    const reasoning: ReasoningPart = {
      type: 'reasoning',
      text: '**Reporting the total**\n\nThe tool returned 42, so the total is 42.',
      redacted: 'gAAAAABpTdmOwnNonstreamEncrypted0010==',
      providerMetadata: { openai: { itemId: 'rs_TdmOwnNonstream0010' } },
    };
    expect(response).toEqual({
      message: { role: 'assistant', content: [reasoning, { type: 'text', text: 'The total is 42.' }] },
      finishReason: 'stop',
      usage: usage(640, 150, 512, 128),
      responseId: 'resp_TdmOwnNonstream0010',
    });
    await m.generate({
      ...ask,
      messages: [...ask.messages, response.message, { role: 'user', content: 'Thanks' }],
    });
    expect(server.lastRequest().body.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] },
      {
        type: 'reasoning',
        id: 'rs_TdmOwnNonstream0010',
        summary: [{ type: 'summary_text', text: reasoning.text }],
        encrypted_content: reasoning.redacted,
      },
      { role: 'assistant', content: [{ type: 'output_text', text: 'The total is 42.' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'Thanks' }] },
    ]);
  });

  it('is reached through createOpenAI(...).responses with the provider name, key and settings', async () => {
    server.handle(serveFixture('openai-responses/nonstream-reasoning-encrypted.json'));
    const m = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-live', name: 'azure' }).responses(
      'my-deployment',
      { reasoningModel: true, store: true, reasoningEffort: 'high' },
    );
    expect(m.id).toBe('azure:my-deployment');
    expect(m.info?.supportsReasoning).toBe(true);
    await m.generate(ask);
    const request = server.lastRequest();
    expect(request.url).toBe('/v1/responses');
    expect(request.headers.authorization).toBe('Bearer sk-live');
    expect(request.body).toMatchObject({
      model: 'my-deployment',
      store: true,
      reasoning: { effort: 'high' },
    });
    expect(request.body).not.toHaveProperty('include');
  });

  it('maps an HTTP 400 to bad_request with the provider message, streamed or not', async () => {
    server.handle(serveFixture('openai-responses/error-400-unsupported-temperature.json'));
    for (const call of [() => model('gpt-4o').generate(ask), () => drain(model('gpt-4o').stream(ask))]) {
      const error = await failure(call());
      expect(error.kind).toBe('bad_request');
      expect(error.status).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
    }
  });
});
