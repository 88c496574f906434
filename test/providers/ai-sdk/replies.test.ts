/**
 * `fromAISDK` over the real provider package of each AI SDK major (spec v2,
 * v3, v4) against a loopback Chat Completions server: what goes on the wire
 * and what comes back, generated and streamed.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { respond, respondSSE, useFixtureServer } from '../fixture-server.js';
import { ADD_TOOL, collectParts } from '../helpers.js';
import { callDelta, chunks, completion, MAJORS, type Major, realModel, USAGE } from './real-providers.js';

const server = useFixtureServer();
const ASK: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] };

describe.each(MAJORS)('fromAISDK over @ai-sdk/openai-compatible, spec $spec (ai $ai)', (major: Major) => {
  const model = () => realModel(major, server.url);

  it('generates text, sending the system prompt as a system message', async () => {
    server.handle(respond(200, completion({ content: 'Hello.' })));
    const response = await model().generate(ASK);
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hello.' }]);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual(USAGE);
    expect(response.responseId).toBe('chatcmpl-1');
    const body = server.lastRequest().body;
    expect(body.model).toBe('gpt-test');
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('streams text deltas and finishes with usage and the response id', async () => {
    server.handle(respondSSE(chunks([{ role: 'assistant', content: 'Hel' }, { content: 'lo.' }])));
    const { parts, response } = await collectParts(model().stream(ASK));
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['Hel', 'lo.']);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      usage: USAGE,
      responseId: 'chatcmpl-2',
    });
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hello.' }]);
    expect(server.lastRequest().body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends tools and tool choice, and reads parallel tool calls from a generated reply', async () => {
    const calls = [
      { id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
      { id: 'call_2', name: 'add', arguments: '{"a":4,"b":5}' },
    ];
    server.handle(respond(200, completion({ tool_calls: calls }, 'tool_calls')));
    const response = await model().generate({ ...ASK, tools: [ADD_TOOL], toolChoice: 'required' });
    expect(response.message.content).toEqual(calls.map((c) => ({ type: 'tool_call', ...c })));
    expect(response.finishReason).toBe('tool_calls');
    const body = server.lastRequest().body;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'add', description: ADD_TOOL.description, parameters: ADD_TOOL.parameters },
      },
    ]);
    expect(body.tool_choice).toBe('required');
  });

  it('streams parallel tool calls with interleaved argument deltas', async () => {
    server.handle(
      respondSSE(
        chunks(
          [
            callDelta(0, '{"a":', { id: 'call_1', name: 'add' }),
            callDelta(1, '{"a":4,', { id: 'call_2', name: 'add' }),
            callDelta(0, '2,"b":3}'),
            callDelta(1, '"b":5}'),
          ],
          'tool_calls',
        ),
      ),
    );
    const { parts, response } = await collectParts(model().stream({ ...ASK, tools: [ADD_TOOL] }));
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
      { type: 'tool_call', id: 'call_2', name: 'add', arguments: '{"a":4,"b":5}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(parts.some((p) => p.type === 'tool-call-delta')).toBe(true);
  });

  it('sends tool calls and their results back in the wire format', async () => {
    server.handle(respond(200, completion({ content: '5 and 9.' })));
    await model().generate({
      messages: [
        { role: 'user', content: 'Add' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
            { type: 'tool_call', id: 'call_2', name: 'add', arguments: '{"a":4,"b":5}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', toolName: 'add', content: '5' },
            { type: 'tool_result', toolCallId: 'call_2', toolName: 'add', content: 'no', isError: true },
          ],
        },
      ],
      tools: [ADD_TOOL],
    });
    const messages = server.lastRequest().body.messages;
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
        { id: 'call_2', type: 'function', function: { name: 'add', arguments: '{"a":4,"b":5}' } },
      ],
    });
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
      { role: 'tool', tool_call_id: 'call_2', content: 'no' },
    ]);
  });

  it('reads reasoning, generated and streamed, and replays it as reasoning_content', async () => {
    server.handle(respond(200, completion({ reasoning_content: 'Easy.', content: 'Hi!' })));
    const generated = await model().generate(ASK);
    // The v2 package lists text before reasoning in a generated reply; tandem keeps the provider's order.
    const both = [
      { type: 'reasoning', text: 'Easy.' },
      { type: 'text', text: 'Hi!' },
    ];
    expect(generated.message.content).toHaveLength(2);
    expect(generated.message.content).toEqual(expect.arrayContaining(both));
    server.handle(
      respondSSE(chunks([{ reasoning_content: 'Ea' }, { reasoning_content: 'sy.' }, { content: 'Hi!' }])),
    );
    const { response } = await collectParts(model().stream(ASK));
    expect(response.message.content).toEqual(both);
    server.handle(respond(200, completion({ content: 'ok' })));
    await model().generate({
      messages: [...ASK.messages, generated.message, { role: 'user', content: 'More' }],
    });
    expect(server.lastRequest().body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Hi!',
      reasoning_content: 'Easy.',
    });
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['stop', 'stop'],
    ['something_new', 'stop'],
  ])('maps the finish reason %s to %s, generated and streamed', async (wire, tandem) => {
    server.handle(respond(200, completion({ content: 'x' }, wire)));
    expect((await model().generate(ASK)).finishReason).toBe(tandem);
    server.handle(respondSSE(chunks([{ content: 'x' }], wire)));
    expect((await collectParts(model().stream(ASK))).response.finishReason).toBe(tandem);
  });
});
