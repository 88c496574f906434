import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest } from '../../src/model/types.js';
import { type AnthropicSettings, createAnthropic } from '../../src/providers/anthropic/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { respondSSE, serveFixture, useFixtureServer } from './fixture-server.js';
import { ADD_TOOL, type StreamingModel } from './helpers.js';

const server = useFixtureServer();
beforeEach(() => {
  server.handle(serveFixture('anthropic/nonstream-parallel-tool-use.json'));
});

function claude(settings?: AnthropicSettings, options: { version?: string } = {}): StreamingModel {
  return createAnthropic({
    apiKey: 'sk-ant-test',
    baseURL: `${server.url}/v1`,
    headers: { 'x-trace': 'abc' },
    ...options,
  })('claude-sonnet-4-5', settings) as StreamingModel;
}

async function sent(request: ModelRequest, settings?: AnthropicSettings): Promise<any> {
  await claude(settings).generate(request);
  return server.lastRequest().body;
}

const tools = [ADD_TOOL];

const toolTurn: Message[] = [
  { role: 'user', content: 'Add and multiply 2 and 3' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Calling both.' },
      { type: 'tool_call', id: 'toolu_1', name: 'add', arguments: '{"a":2,"b":3}' },
      { type: 'tool_call', id: 'toolu_2', name: 'multiply', arguments: '{"a":2,"b":3}' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool_result', toolCallId: 'toolu_1', toolName: 'add', content: '5' },
      {
        type: 'tool_result',
        toolCallId: 'toolu_2',
        toolName: 'multiply',
        content: 'overflow',
        isError: true,
      },
    ],
  },
];

describe('Anthropic request body (served anthropic/nonstream-parallel-tool-use.json)', () => {
  it('puts the system prompt in top-level system and never in a user message', async () => {
    const body = await sent(
      { system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] },
      { cache: false },
    );
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    expect(JSON.stringify(body.messages)).not.toContain('You are terse.');
  });

  it('sends the key, version and extra headers to <baseURL>/messages', async () => {
    await claude({}, { version: '2023-01-01' }).generate({ messages: [{ role: 'user', content: 'Hi' }] });
    const request = server.lastRequest();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-01-01');
    expect(request.headers['x-trace']).toBe('abc');
    expect(request.body.model).toBe('claude-sonnet-4-5');
  });

  it('defaults max_tokens to 4096, then takes settings and the request in that order', async () => {
    const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };
    expect((await sent(ask)).max_tokens).toBe(4096);
    expect((await sent(ask, { maxTokens: 1000 })).max_tokens).toBe(1000);
    expect((await sent({ ...ask, maxOutputTokens: 77 }, { maxTokens: 1000 })).max_tokens).toBe(77);
  });

  it('enables thinking with the budget and keeps 4096 answer tokens on top of it', async () => {
    const body = await sent(
      { messages: [{ role: 'user', content: 'Hi' }] },
      { thinking: { budgetTokens: 2048 } },
    );
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(2048 + 4096);
  });

  it('sends tool schemas as input_schema and maps every tool choice', async () => {
    const ask = { messages: [{ role: 'user' as const, content: 'Hi' }], tools };
    const body = await sent(ask);
    expect(body.tools).toEqual([
      { name: 'add', description: 'Adds two numbers', input_schema: tools[0]?.parameters },
    ]);
    expect(body.tool_choice).toBeUndefined();
    expect((await sent({ ...ask, toolChoice: 'auto' })).tool_choice).toEqual({ type: 'auto' });
    expect((await sent({ ...ask, toolChoice: 'none' })).tool_choice).toEqual({ type: 'none' });
    expect((await sent({ ...ask, toolChoice: 'required' })).tool_choice).toEqual({ type: 'any' });
    expect((await sent({ ...ask, toolChoice: { name: 'add' } })).tool_choice).toEqual({
      type: 'tool',
      name: 'add',
    });
    expect((await sent(ask, { parallelToolCalls: false })).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('sends tool calls as tool_use and batches their results into one user message of tool_result blocks', async () => {
    const body = await sent({ messages: toolTurn }, { cache: false });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Add and multiply 2 and 3' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Calling both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 2, b: 3 } },
          { type: 'tool_use', id: 'toolu_2', name: 'multiply', input: { a: 2, b: 3 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '5' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'overflow', is_error: true },
        ],
      },
    ]);
  });

  it('merges a user message that follows tool results into the same user turn, results first', async () => {
    const body = await sent(
      { messages: [...toolTurn, { role: 'user', content: 'Continue.' }] },
      { cache: false },
    );
    expect(body.messages).toHaveLength(3);
    expect(body.messages[2].content.map((b: { type: string }) => b.type)).toEqual([
      'tool_result',
      'tool_result',
      'text',
    ]);
  });

  it('replays tool arguments that are not a JSON object inside an object, so the model sees what it wrote', async () => {
    const body = await sent(
      {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'add', arguments: '{"a":' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool_result', toolCallId: 't1', toolName: 'add', content: 'bad', isError: true },
            ],
          },
        ],
      },
      { cache: false },
    );
    expect(body.messages[1].content[0].input).toEqual({ _invalid_arguments: '{"a":' });
  });

  it('replays thinking with its signature and redacted thinking verbatim, and drops unsigned reasoning', async () => {
    server.handle(serveFixture('anthropic/nonstream-thinking-tool-use.json'));
    const first = await claude().generate({ messages: [{ role: 'user', content: 'Weather in Nairobi?' }] });
    const messages: Message[] = [
      { role: 'user', content: 'Weather in Nairobi?' },
      first.message,
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'toolu_01TdmWeatherNairobi',
            toolName: 'get_weather',
            content: 'sunny',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'from another provider' },
          {
            type: 'reasoning',
            text: '',
            redacted: 'EmwKAhgBEgy3va',
            providerMetadata: { anthropic: { redactedThinking: true } },
          },
          { type: 'reasoning', text: '', redacted: 'openai-encrypted' },
          { type: 'text', text: 'It is sunny.' },
        ],
      },
      { role: 'user', content: 'Thanks' },
    ];
    const body = await sent({ messages }, { cache: false });
    const signature = (first.message.content[0] as { signature: string }).signature;
    expect(body.messages[1].content).toEqual([
      { type: 'thinking', thinking: (first.message.content[0] as { text: string }).text, signature },
      {
        type: 'tool_use',
        id: 'toolu_01TdmWeatherNairobi',
        name: 'get_weather',
        input: { city: 'Nairobi' },
      },
    ]);
    expect(signature).toBe(
      OWN_FIXTURES.json('anthropic/nonstream-thinking-tool-use.json').content[0].signature,
    );
    expect(body.messages[3].content).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va' },
      { type: 'text', text: 'It is sunny.' },
    ]);
  });

  it('streams redacted thinking, a whole tool input and cache-write usage; sends the thinking data back unchanged', async () => {
    // Frames in the documented shape: redacted thinking, text, and a tool_use whose input arrives whole.
    const frames = [
      { type: 'message_start', message: { id: 'msg_r', usage: { input_tokens: 9, output_tokens: 1 } } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 't9', name: 'find', input: { q: 'x' } },
      },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use' },
        usage: { output_tokens: 4, cache_creation_input_tokens: 100, cache_read_input_tokens: 50 },
      },
      { type: 'message_stop' },
    ];
    server.handle(respondSSE(frames.map((f) => `event: ${f.type}\ndata: ${JSON.stringify(f)}\n\n`).join('')));
    const response = await collectStream(claude().stream({ messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: '',
        redacted: 'EmwKAhgBEgy3va',
        providerMetadata: { anthropic: { redactedThinking: true } },
      },
      { type: 'text', text: 'Done.' },
      { type: 'tool_call', id: 't9', name: 'find', arguments: '{"q":"x"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({
      inputTokens: 9 + 100 + 50,
      outputTokens: 4,
      cachedInputTokens: 50,
      reasoningTokens: 0,
    });
    expect(response.providerMetadata).toEqual({ anthropic: { cacheCreationInputTokens: 100 } });
    server.handle(serveFixture('anthropic/nonstream-parallel-tool-use.json'));
    const body = await sent(
      {
        messages: [
          { role: 'user', content: 'Hi' },
          response.message,
          {
            role: 'tool',
            content: [{ type: 'tool_result', toolCallId: 't9', toolName: 'find', content: 'ok' }],
          },
        ],
      },
      { cache: false },
    );
    expect(body.messages[1].content).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va' },
      { type: 'text', text: 'Done.' },
      { type: 'tool_use', id: 't9', name: 'find', input: { q: 'x' } },
    ]);
  });

  it('adds a JSON instruction to the system prompt for responseFormat json without a schema', async () => {
    const body = await sent(
      {
        system: 'Be exact.',
        messages: [{ role: 'user', content: 'City?' }],
        responseFormat: { type: 'json' },
      },
      { cache: false },
    );
    expect(body.system[0]).toEqual({ type: 'text', text: 'Be exact.' });
    expect(body.system[1].text).toContain('single JSON value');
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'City?' }] }]);
    expect(body.tools).toBeUndefined();
  });

  it('passes temperature, stop sequences and providerOptions.anthropic through', async () => {
    const body = await sent({
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.2,
      stop: ['END'],
      providerOptions: { anthropic: { metadata: { user_id: 'u1' } }, openai: { store: true } },
    });
    expect(body.temperature).toBe(0.2);
    expect(body.stop_sequences).toEqual(['END']);
    expect(body.metadata).toEqual({ user_id: 'u1' });
    expect(body.store).toBeUndefined();
  });

  it('leaves the caller messages and system parts untouched', async () => {
    const system = [{ text: 'Static rules.', cache: true }, { text: 'Dynamic part.' }];
    const messages: Message[] = [...toolTurn, { role: 'user', content: 'More' }];
    const before = structuredClone({ system, messages });
    const body = await sent({ system, messages });
    expect({ system, messages }).toEqual(before);
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('Anthropic model identity', () => {
  it('is named anthropic:<model> and reports tool, JSON and reasoning support', () => {
    const model = claude({ thinking: { budgetTokens: 1024 }, info: { contextWindow: 1_000_000 } });
    expect(model.id).toBe('anthropic:claude-sonnet-4-5');
    expect(model.info).toEqual({
      contextWindow: 1_000_000,
      supportsTools: true,
      supportsJson: true,
      structuredOutput: 'tool',
      structuredOutputWithTools: false,
      supportsReasoning: true,
    });
  });

  it('reads ANTHROPIC_API_KEY from the environment when no key is given', async () => {
    const previous = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-env';
    try {
      await createAnthropic({ baseURL: `${server.url}/v1` })('claude-sonnet-4-5').generate({
        messages: [{ role: 'user', content: 'Hi' }],
      });
    } finally {
      if (previous === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = previous;
    }
    expect(server.lastRequest().headers['x-api-key']).toBe('sk-ant-from-env');
  });
});
