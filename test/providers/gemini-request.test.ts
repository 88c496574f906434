import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest } from '../../src/model/types.js';
import { createGemini, type GeminiSettings } from '../../src/providers/gemini/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';
import { ADD_TOOL, type StreamingModel } from './helpers.js';

const server = useFixtureServer();
beforeEach(() => {
  server.handle(serveFixture('gemini/generate-content-parallel-function-calls.json'));
});

function gemini(settings?: GeminiSettings, modelId = 'gemini-2.5-flash'): StreamingModel {
  return createGemini({ apiKey: 'gm-test', baseURL: `${server.url}/v1beta/`, headers: { 'x-trace': 't1' } })(
    modelId,
    settings,
  ) as StreamingModel;
}

async function sent(request: ModelRequest, settings?: GeminiSettings): Promise<any> {
  await gemini(settings).generate(request);
  return server.lastRequest().body;
}

const tools = [ADD_TOOL];

describe('Gemini request body (served gemini/generate-content-parallel-function-calls.json)', () => {
  it('puts the system prompt in systemInstruction and never in the contents', async () => {
    const body = await sent({ system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    expect(JSON.stringify(body.contents)).not.toContain('You are terse.');
  });

  it('joins system parts into systemInstruction parts', async () => {
    const body = await sent({
      system: [{ text: 'A', cache: true }, { text: '' }, { text: 'B' }],
      messages: [],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'A' }, { text: 'B' }] });
  });

  it('sends the key as x-goog-api-key to models/<model>:generateContent', async () => {
    await gemini().generate({ messages: [{ role: 'user', content: 'Hi' }] });
    const request = server.lastRequest();
    expect(request.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('gm-test');
    expect(request.headers['x-trace']).toBe('t1');
    expect(request.url).not.toContain('key=');
  });

  it('keeps a tuned model path as given', async () => {
    await gemini({}, 'tunedModels/my-model').generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(server.lastRequest().url).toBe('/v1beta/tunedModels/my-model:generateContent');
  });

  it('sends tools as functionDeclarations with parametersJsonSchema and maps every tool choice', async () => {
    const ask = { messages: [{ role: 'user' as const, content: 'Hi' }], tools };
    const body = await sent(ask);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'add', description: 'Adds two numbers', parametersJsonSchema: tools[0]?.parameters },
        ],
      },
    ]);
    expect(body.toolConfig).toBeUndefined();
    expect((await sent({ ...ask, toolChoice: 'none' })).toolConfig).toEqual({
      functionCallingConfig: { mode: 'NONE' },
    });
    expect((await sent({ ...ask, toolChoice: 'required' })).toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY' },
    });
    expect((await sent({ ...ask, toolChoice: { name: 'add' } })).toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['add'] },
    });
  });

  it('replays parallel calls with their thoughtSignature and answers them by name in one user turn', async () => {
    const model = gemini();
    const first = await model.generate({
      messages: [{ role: 'user', content: 'Add and multiply 2 and 3' }],
      tools,
    });
    const messages: Message[] = [
      { role: 'user', content: 'Add and multiply 2 and 3' },
      first.message,
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'add_0', toolName: 'add', content: '5' },
          {
            type: 'tool_result',
            toolCallId: 'multiply_1',
            toolName: 'multiply',
            content: 'overflow',
            isError: true,
          },
        ],
      },
    ];
    const body = await sent({ messages, tools });
    const signature = OWN_FIXTURES.json('gemini/generate-content-parallel-function-calls.json').candidates[0]
      .content.parts[0].thoughtSignature;
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Add and multiply 2 and 3' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'add', args: { a: 2, b: 3 } }, thoughtSignature: signature },
          { functionCall: { name: 'multiply', args: { a: 2, b: 3 } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'add', response: { output: '5' } } },
          { functionResponse: { name: 'multiply', response: { error: 'overflow' } } },
        ],
      },
    ]);
  });

  it('sends a text part signature back on that text part, and thoughts as thought parts (gemini/stream-thinking-text.sse)', async () => {
    server.handle(serveFixture('gemini/stream-thinking-text.sse'));
    const model = gemini({ thinking: { includeThoughts: true } });
    const first = await collectStream(
      model.stream({ messages: [{ role: 'user', content: 'How do I cross?' }] }),
    );
    server.handle(serveFixture('gemini/generate-content-function-call.json'));
    const body = await sent({
      messages: [
        { role: 'user', content: 'How do I cross?' },
        first.message,
        { role: 'user', content: 'Thanks' },
      ],
    });
    const [thought, answer, ...rest] = body.contents[1].parts;
    expect(rest).toEqual([]);
    expect(thought).toEqual({ text: expect.stringMatching(/^\*\*Planning the answer\*\*/), thought: true });
    expect(answer).toEqual({
      text: expect.stringMatching(/^Soft rain on the roof\n/),
      thoughtSignature: expect.stringMatching(/^CiQB0e2Kb7TdmOwnThoughtSignature/),
    });
  });

  it('keeps a signature that arrived on an empty closing text part as that part', async () => {
    const body = await sent({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello.' },
            { type: 'reasoning', text: '', providerMetadata: { gemini: { thoughtSignature: 'SIG' } } },
          ],
        },
      ],
    });
    expect(body.contents[1].parts).toEqual([{ text: 'Hello.' }, { text: '', thoughtSignature: 'SIG' }]);
  });

  it('drops reasoning from other providers, which Gemini cannot verify', async () => {
    const body = await sent({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'anthropic thinking', signature: 'abc' },
            { type: 'text', text: 'Hello.' },
          ],
        },
      ],
    });
    expect(body.contents[1].parts).toEqual([{ text: 'Hello.' }]);
  });

  it('sends Gemini call ids back on the call and on its function response', async () => {
    const body = await sent({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'fc-1',
              name: 'add',
              arguments: '{"a":1}',
              providerMetadata: { gemini: { functionCallId: 'fc-1' } },
            },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'fc-1', toolName: '', content: '1' }] },
      ],
    });
    expect(body.contents[1].parts[0]).toEqual({ functionCall: { id: 'fc-1', name: 'add', args: { a: 1 } } });
    expect(body.contents[2].parts[0]).toEqual({
      functionResponse: { id: 'fc-1', name: 'add', response: { output: '1' } },
    });
  });

  it('asks for JSON with responseMimeType and responseJsonSchema', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const body = await sent({
      messages: [{ role: 'user', content: 'City?' }],
      responseFormat: { type: 'json', schema },
    });
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });

  it('maps temperature, max tokens, stop, thinking and safety settings, and merges providerOptions.gemini', async () => {
    const body = await sent(
      {
        messages: [{ role: 'user', content: 'Hi' }],
        temperature: 0.3,
        stop: ['END'],
        providerOptions: { gemini: { generationConfig: { topK: 5 }, cachedContent: 'cachedContents/abc' } },
      },
      {
        maxOutputTokens: 512,
        thinking: { budgetTokens: 1024, includeThoughts: true },
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
      },
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      maxOutputTokens: 512,
      stopSequences: ['END'],
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      topK: 5,
    });
    expect(body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }]);
    expect(body.cachedContent).toBe('cachedContents/abc');
  });

  it('leaves the caller messages untouched', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', providerMetadata: { gemini: { thoughtSignature: 'S' } } },
          { type: 'text', text: 'Hello' },
          { type: 'tool_call', id: 'add_0', name: 'add', arguments: '{"a":1,"b":2}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'add_0', toolName: 'add', content: '3' }],
      },
    ];
    const before = structuredClone(messages);
    await sent({ system: 'S', messages });
    expect(messages).toEqual(before);
  });
});

describe('Gemini model identity', () => {
  it('is named gemini:<model> and reads GEMINI_API_KEY, then GOOGLE_API_KEY, from the environment', async () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY };
    try {
      delete process.env.GEMINI_API_KEY;
      process.env.GOOGLE_API_KEY = 'google-env';
      const model = createGemini({ baseURL: server.url })('gemini-2.5-pro');
      expect(model.id).toBe('gemini:gemini-2.5-pro');
      await model.generate({ messages: [{ role: 'user', content: 'Hi' }] });
      expect(server.lastRequest().headers['x-goog-api-key']).toBe('google-env');
      process.env.GEMINI_API_KEY = 'gemini-env';
      await createGemini({ baseURL: server.url })('gemini-2.5-pro').generate({
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(server.lastRequest().headers['x-goog-api-key']).toBe('gemini-env');
    } finally {
      for (const [name, value] of [
        ['GEMINI_API_KEY', saved.gemini],
        ['GOOGLE_API_KEY', saved.google],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
