import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message } from '../../src/core/messages.js';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest } from '../../src/model/types.js';
import {
  createOpenAI,
  type OpenAIChatSettings,
  type OpenAIProviderOptions,
} from '../../src/providers/openai/index.js';
import { defineTool, toolSpec } from '../../src/tools/types.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { respond, serveFixture, useFixtureServer } from './fixture-server.js';

const server = useFixtureServer();
const TEXT_REPLY = 'openai-chat/nonstream-text.json';

function model(settings?: OpenAIChatSettings, options: OpenAIProviderOptions = {}) {
  return createOpenAI({ baseURL: `${server.get().url}/v1`, apiKey: 'sk-test', ...options })(
    'test-model',
    settings,
  );
}

async function sent(request: ModelRequest, settings?: OpenAIChatSettings, options?: OpenAIProviderOptions) {
  server.get().handle(serveFixture(TEXT_REPLY));
  await model(settings, options).generate(request);
  return server.get().lastRequest();
}

const weather = defineTool({
  name: 'weather',
  description: 'Current weather of a place',
  parameters: z.object({ location: z.string() }),
  execute: async () => 'sunny',
});

describe('OpenAI Chat request mapping', () => {
  it('sends the system prompt as the first system message, never inside a user message', async () => {
    const req = await sent({ system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hi' },
    ]);
    const userTexts = req.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);
    expect(userTexts.join('')).not.toContain('You are terse.');
  });

  it('joins system parts with blank lines into one system message', async () => {
    const req = await sent({
      system: [{ text: 'Rules.', cache: true }, { text: 'Tools guide.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(req.body.messages[0]).toEqual({ role: 'system', content: 'Rules.\n\nTools guide.' });
    expect(req.body.messages.filter((m: any) => m.role === 'system')).toHaveLength(1);
    expect(req.body.messages[1]).toEqual({ role: 'user', content: 'Hi' });
  });

  it('omits an empty system prompt', async () => {
    const req = await sent({ system: '', messages: [{ role: 'user', content: 'Hi' }] });
    expect(req.body.messages.map((m: any) => m.role)).toEqual(['user']);
  });

  it('sends tool schemas as function tools with tool_choice and parallel_tool_calls', async () => {
    const req = await sent(
      {
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [await toolSpec(weather)],
        toolChoice: { name: 'weather' },
      },
      { parallelToolCalls: false },
    );
    expect(req.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Current weather of a place',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { location: { type: 'string' } },
            required: ['location'],
          }),
        },
      },
    ]);
    expect(req.body.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    expect(req.body.parallel_tool_calls).toBe(false);
  });

  it('passes string tool choices through and sends no tool fields without tools', async () => {
    const withTools = await sent({
      messages: [{ role: 'user', content: 'x' }],
      tools: [await toolSpec(weather)],
      toolChoice: 'required',
    });
    expect(withTools.body.tool_choice).toBe('required');
    const without = await sent(
      { messages: [{ role: 'user', content: 'x' }], toolChoice: 'auto' },
      { parallelToolCalls: true },
    );
    expect(without.body).not.toHaveProperty('tools');
    expect(without.body).not.toHaveProperty('tool_choice');
    expect(without.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('round-trips streamed tool calls and their results: one tool message per result', async () => {
    server.get().handle(serveFixture('openai-chat/stream-parallel-tool-calls.sse'));
    const chat = model();
    const first: ModelRequest = { messages: [{ role: 'user', content: 'Weather and time in Paris?' }] };
    const reply = await collectStream(chat.stream(first));
    const history: Message[] = [
      ...first.messages,
      reply.message,
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_TdmWeatherParis01',
            toolName: 'get_weather',
            content: '18C',
          },
          {
            type: 'tool_result',
            toolCallId: 'call_TdmTimeParis02',
            toolName: 'get_time',
            content: 'boom',
            isError: true,
          },
        ],
      },
    ];
    const req = await sent({ messages: history });
    expect(req.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_TdmWeatherParis01',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city": "Paris", "unit": "c"}' },
          },
          {
            id: 'call_TdmTimeParis02',
            type: 'function',
            function: { name: 'get_time', arguments: '{"tz": "Europe/Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_TdmWeatherParis01', content: '18C' },
      { role: 'tool', tool_call_id: 'call_TdmTimeParis02', content: 'boom' },
    ]);
  });

  it('sends an empty tool-call argument string as {}', async () => {
    const req = await sent({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'now', arguments: '' }] },
      ],
    });
    expect(req.body.messages[0].tool_calls[0].function.arguments).toBe('{}');
  });

  it('maps the JSON response format with and without a schema', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const withSchema = await sent(
      {
        messages: [{ role: 'user', content: 'x' }],
        responseFormat: { type: 'json', schema, name: 'answer' },
      },
      { strictJsonSchema: true },
    );
    expect(withSchema.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema, strict: true },
    });
    const plain = await sent({
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json' },
    });
    expect(plain.body.response_format).toEqual({ type: 'json_object' });
  });

  it('sends temperature, stop and max_tokens to compatible servers; providerOptions.openai wins', async () => {
    const req = await sent(
      {
        messages: [{ role: 'user', content: 'x' }],
        temperature: 0.2,
        stop: ['END'],
        maxOutputTokens: 64,
        providerOptions: { openai: { seed: 7, temperature: 0.3 }, anthropic: { ignored: true } },
      },
      { extraBody: { thinking: { type: 'enabled' } } },
    );
    expect(req.body).toMatchObject({
      model: 'test-model',
      temperature: 0.3,
      stop: ['END'],
      max_tokens: 64,
      seed: 7,
      thinking: { type: 'enabled' },
    });
    expect(req.body).not.toHaveProperty('max_completion_tokens');
    expect(req.body).not.toHaveProperty('ignored');
  });

  it('merges providerOptions under the provider name of a compatible server', async () => {
    const req = await sent(
      {
        messages: [{ role: 'user', content: 'x' }],
        providerOptions: { deepseek: { thinking: { type: 'enabled' } } },
      },
      {},
      { name: 'deepseek' },
    );
    expect(req.body.thinking).toEqual({ type: 'enabled' });
  });

  it('honours the maxTokensParam setting', async () => {
    const req = await sent(
      { messages: [{ role: 'user', content: 'x' }], maxOutputTokens: 10 },
      { maxTokensParam: 'max_completion_tokens' },
    );
    expect(req.body.max_completion_tokens).toBe(10);
    expect(req.body).not.toHaveProperty('max_tokens');
  });

  it('asks for the usage chunk when streaming unless streamUsage is false', async () => {
    server.get().handle(serveFixture('openai-chat/stream-text-usage.sse'));
    await collectStream(model().stream({ messages: [{ role: 'user', content: 'x' }] }));
    const streamed = server.get().lastRequest();
    expect(streamed.body.stream).toBe(true);
    expect(streamed.body.stream_options).toEqual({ include_usage: true });
    expect(streamed.headers.accept).toBe('text/event-stream');
    await collectStream(model({ streamUsage: false }).stream({ messages: [{ role: 'user', content: 'x' }] }));
    expect(server.get().lastRequest().body).not.toHaveProperty('stream_options');
  });

  it('sends the key, organization, project and custom headers', async () => {
    const req = await sent(
      { messages: [{ role: 'user', content: 'x' }] },
      {},
      { organization: 'org-1', project: 'proj-1', headers: { 'x-extra': 'yes' } },
    );
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.headers['openai-organization']).toBe('org-1');
    expect(req.headers['openai-project']).toBe('proj-1');
    expect(req.headers['x-extra']).toBe('yes');
    expect(req.headers['content-type']).toBe('application/json');
  });
});

describe('OpenAI Chat reasoning replay', () => {
  async function reasoningToolTurn(): Promise<Message[]> {
    server.get().handle(serveFixture('openai-compatible/deepseek-stream-reasoning-tool-call.chunks.jsonl'));
    const reply = await collectStream(
      model().stream({ messages: [{ role: 'user', content: 'Weather in Oslo?' }] }),
    );
    return [
      { role: 'user', content: 'Weather in Oslo?' },
      reply.message,
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_00_TdmOsloWeather01',
            toolName: 'get_weather',
            content: '18C',
          },
        ],
      },
    ];
  }

  async function reasoningTextTurn(): Promise<Message[]> {
    server.get().handle(serveFixture('openai-compatible/deepseek-nonstream-reasoning.json'));
    const reply = await model().generate({ messages: [{ role: 'user', content: 'How many o in balloon?' }] });
    return [
      { role: 'user', content: 'How many o in balloon?' },
      reply.message,
      { role: 'user', content: 'Sure?' },
    ];
  }

  it('replays reasoning_content on assistant turns with tool calls by default (DeepSeek/Kimi thinking)', async () => {
    const history = await reasoningToolTurn();
    const req = await sent({ messages: history });
    const assistant = req.body.messages[1];
    expect(assistant.reasoning_content).toMatch(/^The user wants the weather in Oslo\./);
    expect(assistant.tool_calls[0].id).toBe('call_00_TdmOsloWeather01');
  });

  it('does not replay reasoning of a plain answer by default', async () => {
    const history = await reasoningTextTurn();
    const req = await sent({ messages: history });
    expect(req.body.messages[1]).toEqual({
      role: 'assistant',
      content: OWN_FIXTURES.json('openai-compatible/deepseek-nonstream-reasoning.json').choices[0].message
        .content,
    });
  });

  it("replays every turn's reasoning with 'always' and none with 'never'", async () => {
    const text = await reasoningTextTurn();
    const always = await sent({ messages: text }, { replayReasoning: 'always' });
    expect(always.body.messages[1].reasoning_content).toMatch(/^Spell it: b-a-l-l-o-o-n\./);
    const tools = await reasoningToolTurn();
    const never = await sent({ messages: tools }, { replayReasoning: 'never' });
    expect(never.body.messages[1]).not.toHaveProperty('reasoning_content');
  });
});

describe('OpenAI provider', () => {
  it('names models provider:model and marks loopback servers local', () => {
    const local = model();
    expect(local.id).toBe('openai:test-model');
    expect(local.info?.local).toBe(true);
    const remote = createOpenAI({ baseURL: 'https://api.deepseek.com/v1', name: 'deepseek', apiKey: 'k' })(
      'deepseek-chat',
      { info: { contextWindow: 128000 } },
    );
    expect(remote.id).toBe('deepseek:deepseek-chat');
    expect(remote.info?.local).toBeUndefined();
    expect(remote.info?.contextWindow).toBe(128000);
    for (const url of ['http://localhost:11434/v1', 'http://[::1]:8000/v1', 'http://127.0.0.2:1234/v1']) {
      expect(createOpenAI({ baseURL: url })('m').info?.local).toBe(true);
    }
  });

  it('offers .chat (same as calling it) and .responses models', () => {
    const openai = createOpenAI({ apiKey: 'k' });
    expect(openai.chat('gpt-4o-mini').id).toBe('openai:gpt-4o-mini');
    expect(openai.responses('gpt-5-mini').id).toBe('openai:gpt-5-mini');
    expect(typeof openai.responses('gpt-5-mini').stream).toBe('function');
  });

  it('uses max_completion_tokens and OPENAI_API_KEY for api.openai.com only', async () => {
    const loopback = server.get().url;
    const redirect: typeof fetch = (url, init) =>
      fetch(String(url).replace('https://api.openai.com', loopback), init);
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-env';
    try {
      server.get().handle(serveFixture(TEXT_REPLY));
      await createOpenAI({ fetch: redirect })('gpt-4o').generate({
        messages: [{ role: 'user', content: 'x' }],
        maxOutputTokens: 5,
      });
      const official = server.get().lastRequest();
      expect(official.url).toBe('/v1/chat/completions');
      expect(official.headers.authorization).toBe('Bearer sk-from-env');
      expect(official.body.max_completion_tokens).toBe(5);
      // A compatible server never receives the environment's OpenAI key.
      await createOpenAI({ baseURL: `${loopback}/v1` })('m').generate({
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(server.get().lastRequest().headers.authorization).toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('accepts a baseURL with a trailing slash', async () => {
    server.get().handle(respond(200, OWN_FIXTURES.json(TEXT_REPLY)));
    await createOpenAI({ baseURL: `${server.get().url}/v1/` })('m').generate({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(server.get().lastRequest().url).toBe('/v1/chat/completions');
  });
});
