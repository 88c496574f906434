import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { useFixtureServer } from './fixture-server.js';
import { fixtureReplies, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function gemini(): StreamingModel {
  return createGemini({ apiKey: 'gm-test', baseURL: `${server.url}/v1beta` })(
    'gemini-2.5-flash',
  ) as StreamingModel;
}

const ask: ModelRequest = {
  system: 'You are a careful assistant.',
  messages: [{ role: 'user', content: 'Hello' }],
};

const { streamed, generated } = fixtureReplies(server, gemini, ask);

// Independent oracle: the parts of a fixture, straight from its JSON.
function partsOf(file: string): any[] {
  return file.endsWith('.json')
    ? OWN_FIXTURES.json(file).candidates[0].content.parts
    : OWN_FIXTURES.events(file).flatMap((e) => e.candidates?.[0]?.content?.parts ?? []);
}

function signatureIn(file: string): string {
  return partsOf(file).find((p) => p.thoughtSignature).thoughtSignature;
}

const usage = (
  inputTokens: number,
  outputTokens: number,
  reasoningTokens: number,
  cachedInputTokens = 0,
) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens,
});

describe('Gemini generateContent replies', () => {
  it('reads a function call with its thoughtSignature and a generated id', async () => {
    const file = 'gemini/generate-content-function-call.json';
    expect(await generated(file)).toEqual({
      message: {
        role: 'assistant',
        content: [
          {
            type: 'tool_call',
            id: 'get_weather_0_TdmOwnGeminiGenerate05',
            name: 'get_weather',
            arguments: '{"city":"Quito"}',
            providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: usage(31, 14 + 230, 230),
      responseId: 'TdmOwnGeminiGenerate05',
    });
    expect(server.lastRequest().url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('reads two parallel calls of which only the first carries a signature', async () => {
    const file = 'gemini/generate-content-parallel-function-calls.json';
    const response = await generated(file);
    expect(response.message.content).toEqual([
      {
        type: 'tool_call',
        id: 'add_0_TdmOwnGeminiGenerate06',
        name: 'add',
        arguments: '{"a":2,"b":3}',
        providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
      },
      {
        type: 'tool_call',
        id: 'multiply_1_TdmOwnGeminiGenerate06',
        name: 'multiply',
        arguments: '{"a":2,"b":3}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(125, 36 + 73, 73));
  });

  it('reports MAX_TOKENS as length and counts cached content as cached input', async () => {
    const response = await generated('gemini/generate-content-max-tokens.json');
    expect(response.message.content).toEqual([{ type: 'text', text: 'The three primary colours are red,' }]);
    expect(response.finishReason).toBe('length');
    expect(response.usage).toEqual(usage(9, 8, 0, 4));
  });

  it('reports a prompt blocked before any candidate as content_filter with no content', async () => {
    const response = await generated('gemini/generate-content-prompt-blocked.json');
    expect(response.message.content).toEqual([]);
    expect(response.finishReason).toBe('content_filter');
    expect(response.usage).toEqual(usage(11, 0, 0));
  });
});

describe('Gemini streamGenerateContent replies', () => {
  it('streams a signed function call and skips the empty closing text part', async () => {
    const file = 'gemini/stream-function-call-thought-signature.sse';
    const { parts } = await streamed(file);
    expect(parts).toEqual([
      {
        type: 'tool-call',
        id: 'get_country_0_TdmOwnGeminiCall02',
        name: 'get_country',
        arguments: '{}',
        index: 0,
        providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
      },
      {
        type: 'finish',
        finishReason: 'tool_calls',
        usage: usage(30, 8 + 150, 150),
        responseId: 'TdmOwnGeminiCall02',
      },
    ]);
    expect(server.lastRequest().url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('streams two whole function calls from one event', async () => {
    const file = 'gemini/stream-parallel-function-calls.sse';
    const { response } = await streamed(file);
    expect(response.message.content).toEqual([
      {
        type: 'tool_call',
        id: 'get_weather_0_TdmOwnGeminiParallel03',
        name: 'get_weather',
        arguments: '{"city":"Accra"}',
        providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
      },
      {
        type: 'tool_call',
        id: 'get_time_1_TdmOwnGeminiParallel03',
        name: 'get_time',
        arguments: '{"tz":"Africa/Accra"}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(118, 34 + 51, 51));
  });

  it('streams thoughts as reasoning and keeps the signature of the answer text, across CRLF frames split anywhere', async () => {
    const file = 'gemini/stream-thinking-text.sse';
    const whole = await streamed(file);
    const split = await streamed(file, { chunkSize: 61 });
    expect(split.parts).toEqual(whole.parts);
    const all = partsOf(file);
    const thoughts = all.filter((p) => p.thought).map((p) => p.text);
    const answer = all.filter((p) => !p.thought).map((p) => p.text);
    expect(whole.response.message.content).toEqual([
      { type: 'reasoning', text: thoughts.join(''), providerMetadata: { gemini: { thought: true } } },
      { type: 'reasoning', text: '', providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } } },
      { type: 'text', text: answer.join('') },
    ]);
    expect(answer.join('')).toBe(
      'Soft rain on the roof\nrivers rehearse on the glass\nthe garden drinks — ✓',
    );
    expect(whole.response.finishReason).toBe('stop');
    // usageMetadata is cumulative: the last chunk's counts win.
    expect(whole.response.usage).toEqual(usage(12, 19 + 88, 88));
    expect(whole.response.responseId).toBe('TdmOwnGeminiThink01');
  });

  it('assembles Vertex partialArgs (strings in pieces, numbers, booleans) into complete calls', async () => {
    const file = 'gemini/stream-vertex-partial-args.chunks.jsonl';
    const { parts } = await streamed(file);
    expect(parts).toEqual([
      {
        type: 'tool-call-delta',
        index: 0,
        id: 'get_weather_0_TdmOwnVertexPartial04',
        name: 'get_weather',
        argsDelta: '',
      },
      {
        type: 'tool-call',
        id: 'get_weather_0_TdmOwnVertexPartial04',
        name: 'get_weather',
        arguments: '{"city":"Buenos Aires","days":3,"metric":true}',
        index: 0,
        providerMetadata: { gemini: { thoughtSignature: signatureIn(file) } },
      },
      {
        type: 'tool-call-delta',
        index: 1,
        id: 'get_weather_1_TdmOwnVertexPartial04',
        name: 'get_weather',
        argsDelta: '',
      },
      {
        type: 'tool-call',
        id: 'get_weather_1_TdmOwnVertexPartial04',
        name: 'get_weather',
        arguments: '{"city":"Montevideo"}',
        index: 1,
      },
      {
        type: 'finish',
        finishReason: 'tool_calls',
        usage: usage(40, 26 + 120, 120),
        responseId: 'TdmOwnVertexPartial04',
      },
    ]);
  });
});
