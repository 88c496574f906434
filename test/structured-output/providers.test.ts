/**
 * Each provider's native structured-output mode on the wire, through an
 * Executor with an output schema against a loopback server: the request body
 * carries the provider's own format (OpenAI `response_format` / `text.format`,
 * Gemini `responseMimeType` + `responseJsonSchema`, Anthropic's forced answer
 * tool, the AI SDK's `responseFormat`), and the reply — written from the
 * providers' documented response shapes — becomes the typed object.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { ChatModel } from '../../src/model/types.js';
import { fromAISDK } from '../../src/providers/ai-sdk/index.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { testRuntime } from '../../src/testing/index.js';
import { respond, respondSSE, useFixtureServer } from '../providers/fixture-server.js';
import { add } from '../support/executor-fixtures.js';

const server = useFixtureServer();

const city = z.object({ name: z.string(), population: z.number() });
const PARIS = { name: 'Paris', population: 2100000 };
const ANSWER = JSON.stringify(PARIS);
const CITY_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, population: { type: 'number' } },
  required: ['name', 'population'],
};

function run(model: ChatModel, options: { tools?: boolean; stream?: boolean } = {}) {
  const executor = new Executor({
    model,
    output: city,
    tools: options.tools ? [add] : [],
    stream: options.stream ?? false,
    runtime: testRuntime(),
  });
  const events: TandemEvent[] = [];
  const started = executor.run('How many people live in Paris?');
  started.on('*', (event) => events.push(event));
  return started.result.then((result) => ({ result, events }));
}

function chatCompletion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 },
  };
}

describe('OpenAI Chat Completions', () => {
  const openai = (info = {}) =>
    createOpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` })('gpt-4o-mini', { info });

  it('sends response_format json_schema and reads the object from the content', async () => {
    server.handle(respond(200, chatCompletion(ANSWER)));
    const { result } = await run(openai({ structuredOutput: 'json_schema' }));
    expect(result.object).toEqual(PARIS);
    expect(server.lastRequest().body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: CITY_SCHEMA, strict: false },
    });
  });

  it('sends tools and the response format in one request where the model takes both (api.openai.com)', async () => {
    const host = createOpenAI({ apiKey: 'sk-test' })('gpt-4o-mini');
    expect(host.info).toMatchObject({ structuredOutput: 'json_schema', structuredOutputWithTools: true });
    server.handle(respond(200, chatCompletion(ANSWER)));
    await run(openai({ structuredOutput: 'json_schema', structuredOutputWithTools: true }), { tools: true });
    const body = server.lastRequest().body;
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['add']);
    expect(body.response_format.type).toBe('json_schema');
  });

  it('uses JSON mode, with the schema in the prompt, on an OpenAI-compatible server by default', async () => {
    server.handle(respond(200, chatCompletion(ANSWER)));
    const { result } = await run(openai());
    expect(result.object).toEqual(PARIS);
    const body = server.lastRequest().body;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0].content).toContain(JSON.stringify(CITY_SCHEMA));
  });
});

describe('OpenAI Responses', () => {
  it('sends text.format json_schema and reads the object from the output message', async () => {
    server.handle(
      respond(200, {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        model: 'gpt-4.1-mini',
        output: [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
          },
        ],
        usage: { input_tokens: 40, output_tokens: 10, total_tokens: 50 },
      }),
    );
    const model = createOpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` }).responses('gpt-4.1-mini');
    const { result } = await run(model, { tools: true });
    expect(result.object).toEqual(PARIS);
    const body = server.lastRequest().body;
    expect(body.text).toEqual({
      format: { type: 'json_schema', name: 'response', schema: CITY_SCHEMA, strict: false },
    });
    expect(body.tools).toHaveLength(1);
  });
});

describe('Gemini', () => {
  const gemini = (modelId: string) =>
    createGemini({ apiKey: 'g-test', baseURL: `${server.url}/v1beta` })(modelId);
  const reply = (text: string) =>
    respond(200, {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 10 },
    });

  it('sends responseMimeType and responseJsonSchema and reads the object from the text part', async () => {
    server.handle(reply(ANSWER));
    const { result } = await run(gemini('gemini-2.5-flash'));
    expect(result.object).toEqual(PARIS);
    expect(server.lastRequest().body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: CITY_SCHEMA,
    });
  });

  it('formats after the tools on Gemini 2.5, and sends both at once on Gemini 3', async () => {
    server.handle(reply('Paris has 2.1 million people.'), reply(ANSWER));
    const older = await run(gemini('gemini-2.5-flash'), { tools: true });
    expect(older.result.object).toEqual(PARIS);
    const [loop, format] = server.requests.map((r) => r.body);
    expect(loop.tools).toHaveLength(1);
    expect(loop.generationConfig).toBeUndefined();
    expect(format.tools).toBeUndefined();
    expect(format.generationConfig.responseJsonSchema).toEqual(CITY_SCHEMA);

    server.requests.splice(0);
    server.handle(reply(ANSWER));
    await run(gemini('gemini-3-pro-preview'), { tools: true });
    expect(server.requests).toHaveLength(1);
    const body = server.lastRequest().body;
    expect(body.tools).toHaveLength(1);
    expect(body.generationConfig.responseJsonSchema).toEqual(CITY_SCHEMA);
  });
});

describe('Anthropic', () => {
  const claude = () =>
    createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })('claude-sonnet-4-5', {
      cache: false,
    });

  it('forces an answer tool whose input is the object', async () => {
    server.handle(
      respond(200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'response', input: PARIS }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 60, output_tokens: 20 },
      }),
    );
    const { result } = await run(claude());
    expect(result.object).toEqual(PARIS);
    expect(result.finishReason).toBe('stop');
    const body = server.lastRequest().body;
    expect(body.tools).toEqual([
      { name: 'response', description: expect.any(String), input_schema: CITY_SCHEMA },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'response' });
  });

  it('streams the answer tool input as partial objects, split into tiny chunks', async () => {
    const pieces = ANSWER.match(/.{1,3}/g)!;
    const events = [
      { type: 'message_start', message: { id: 'msg_2', usage: { input_tokens: 60, output_tokens: 1 } } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_2', name: 'response', input: {} },
      },
      ...pieces.map((partial_json) => ({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json },
      })),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } },
      { type: 'message_stop' },
    ];
    server.handle(
      respondSSE(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''), 7),
    );
    const { result, events: seen } = await run(claude(), { stream: true });
    expect(result.object).toEqual(PARIS);
    const partials = seen.filter((e) => e.type === 'partial_object');
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.map((p) => p.object)).toContainEqual({ name: 'Paris' });
    expect(partials.at(-1)).toMatchObject({ object: PARIS });
  });

  it('wraps a schema that is not an object and unwraps the answer', async () => {
    server.handle(
      respond(200, {
        id: 'msg_3',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_3', name: 'response', input: { value: ['Paris', 'Lyon'] } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 60, output_tokens: 20 },
      }),
    );
    const executor = new Executor({ model: claude(), output: z.array(z.string()), stream: false });
    const result = await executor.run('Two French cities?').result;
    expect(result.object).toEqual(['Paris', 'Lyon']);
    expect(server.lastRequest().body.tools[0].input_schema).toEqual({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'string' } } },
      required: ['value'],
    });
  });

  it('runs the tools without the answer tool, then formats the answer with it', async () => {
    server.handle(
      respond(200, {
        id: 'msg_4',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'Paris has 2.1 million people.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 60, output_tokens: 20 },
      }),
      respond(200, {
        id: 'msg_5',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_5', name: 'response', input: PARIS }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 60, output_tokens: 20 },
      }),
    );
    const { result } = await run(claude(), { tools: true });
    expect(result.object).toEqual(PARIS);
    const [loop, format] = server.requests.map((r) => r.body);
    expect(loop.tools.map((t: { name: string }) => t.name)).toEqual(['add']);
    expect(loop.tool_choice).toBeUndefined();
    expect(format.tools.map((t: { name: string }) => t.name)).toEqual(['response']);
    expect(format.tool_choice).toEqual({ type: 'tool', name: 'response' });
  });
});

describe('AI SDK bridge', () => {
  it('passes responseFormat json with the schema and reads the object from the text', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: ANSWER }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const { result } = await run(fromAISDK(mock));
    expect(result.object).toEqual(PARIS);
    expect(mock.doGenerateCalls[0]!.responseFormat).toEqual({
      type: 'json',
      schema: CITY_SCHEMA,
      name: 'response',
    });
  });
});
