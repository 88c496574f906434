import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { useFixtureServer } from './fixture-server.js';
import { fixtureReplies, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function claude(): StreamingModel {
  return createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })(
    'claude-sonnet-4-5',
  ) as StreamingModel;
}

const ask: ModelRequest = {
  system: 'You are a careful assistant.',
  messages: [{ role: 'user', content: 'Hello' }],
};

const { streamed, generated } = fixtureReplies(server, claude, ask);

// Independent oracle: joins the deltas of one kind straight from the fixture's JSON.
function joined(file: string, deltaType: string, field: string): string {
  return OWN_FIXTURES.events(file)
    .filter((e) => e.type === 'content_block_delta' && e.delta.type === deltaType)
    .map((e) => e.delta[field] as string)
    .join('');
}

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens: 0,
});

describe('Anthropic non-streamed replies', () => {
  it('reads a reply cut by max_tokens as finishReason length', async () => {
    const response = await generated('anthropic/nonstream-max-tokens.json');
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'Here is a short plan:\n\n1. Gather the' }],
      },
      finishReason: 'length',
      usage: usage(1800, 16),
      responseId: 'msg_01TdmOwnNonstreamMax08',
    });
    expect(server.lastRequest().url).toBe('/v1/messages');
  });

  it('reads text and two parallel tool_use blocks in order, counting cache reads and writes as input', async () => {
    const response = await generated('anthropic/nonstream-parallel-tool-use.json');
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          {
            type: 'tool_call',
            id: 'toolu_01TdmWeatherLima01',
            name: 'get_weather',
            arguments: '{"city":"Lima"}',
          },
          {
            type: 'tool_call',
            id: 'toolu_01TdmTimeLima0002',
            name: 'get_time',
            arguments: '{"tz":"America/Lima"}',
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: usage(40 + 1500 + 3000, 90, 3000),
      responseId: 'msg_01TdmOwnNonstreamPar09',
      providerMetadata: { anthropic: { cacheCreationInputTokens: 1500 } },
    });
  });

  it('keeps the thinking signature next to the tool call', async () => {
    const file = 'anthropic/nonstream-thinking-tool-use.json';
    const response = await generated(file);
    const thinking = OWN_FIXTURES.json(file).content[0];
    expect(response.message.content).toEqual([
      { type: 'reasoning', text: thinking.thinking, signature: thinking.signature },
      {
        type: 'tool_call',
        id: 'toolu_01TdmWeatherNairobi',
        name: 'get_weather',
        arguments: '{"city":"Nairobi"}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(420, 85));
  });
});

describe('Anthropic streamed replies', () => {
  it('streams text past a ping and ends with end_turn usage', async () => {
    const { parts, response } = await streamed('anthropic/stream-text.sse');
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'Hello', id: '0' },
      { type: 'text-delta', delta: '! How can', id: '0' },
      { type: 'text-delta', delta: ' I help you', id: '0' },
      { type: 'text-delta', delta: ' today?', id: '0' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: usage(25, 12),
        responseId: 'msg_01TdmOwnTextStream0001',
      },
    ]);
    expect(response.message.content).toEqual([{ type: 'text', text: 'Hello! How can I help you today?' }]);
    expect(server.lastRequest().body.stream).toBe(true);
  });

  it('counts cache reads as cached input, reports cache writes, and stops with length', async () => {
    const { parts } = await streamed('anthropic/stream-max-tokens-cache.chunks.jsonl');
    expect(parts).toEqual([
      { type: 'text-delta', delta: 'Summary: the', id: '0' },
      {
        type: 'finish',
        finishReason: 'length',
        usage: usage(6 + 1200 + 20480, 4, 20480),
        responseId: 'msg_01TdmOwnCacheMax0005',
        providerMetadata: { anthropic: { cacheCreationInputTokens: 1200 } },
      },
    ]);
  });

  it('assembles two parallel tool calls from padded input_json_delta frames', async () => {
    const { parts, response } = await streamed('anthropic/stream-parallel-tool-use.sse');
    expect(parts.filter((p) => p.type === 'tool-call-delta' || p.type === 'tool-call')).toEqual([
      {
        type: 'tool-call-delta',
        index: 1,
        id: 'toolu_01TdmWeatherCairo1',
        name: 'get_weather',
        argsDelta: '',
      },
      { type: 'tool-call-delta', index: 1, argsDelta: '{"ci' },
      { type: 'tool-call-delta', index: 1, argsDelta: 'ty": "Cai' },
      { type: 'tool-call-delta', index: 1, argsDelta: 'ro"}' },
      {
        type: 'tool-call',
        id: 'toolu_01TdmWeatherCairo1',
        name: 'get_weather',
        arguments: '{"city": "Cairo"}',
        index: 1,
      },
      { type: 'tool-call-delta', index: 2, id: 'toolu_01TdmTimeCairo02', name: 'get_time', argsDelta: '' },
      { type: 'tool-call-delta', index: 2, argsDelta: '{"tz": "Afr' },
      { type: 'tool-call-delta', index: 2, argsDelta: 'ica/Cairo"}' },
      {
        type: 'tool-call',
        id: 'toolu_01TdmTimeCairo02',
        name: 'get_time',
        arguments: '{"tz": "Africa/Cairo"}',
        index: 2,
      },
    ]);
    expect(response.message.content[0]).toEqual({ type: 'text', text: "I'll look up both." });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual(usage(530, 121));
  });

  it('streams signed thinking then a tool call, also when frames are split mid-event and mid-UTF-8', async () => {
    const file = 'anthropic/stream-thinking-tool-use.sse';
    const whole = await streamed(file);
    const split = await streamed(file, { chunkSize: 7 });
    expect(split.parts).toEqual(whole.parts);
    expect(whole.parts).toContainEqual({
      type: 'reasoning-delta',
      delta: '',
      id: '0',
      signature: joined(file, 'signature_delta', 'signature'),
    });
    expect(whole.response.message.content).toEqual([
      {
        type: 'reasoning',
        text: joined(file, 'thinking_delta', 'thinking'),
        signature: joined(file, 'signature_delta', 'signature'),
      },
      {
        type: 'tool_call',
        id: 'toolu_01TdmWeatherReyk01',
        name: 'get_weather',
        arguments: '{"city": "Reykjavík"}',
      },
    ]);
    expect(joined(file, 'thinking_delta', 'thinking')).toMatch(/^The user wants the weather in Reykjavík\./);
    expect(whole.response.finishReason).toBe('tool_calls');
    expect(whole.response.usage).toEqual(usage(412, 96));
  });

  it('keeps redacted thinking whole between signed thinking and the answer', async () => {
    const { response } = await streamed('anthropic/stream-redacted-thinking.sse');
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        text: 'Checking the request.',
        signature: 'EpoBCkYIBxgCKkB0dm1PaW5nU2lnbmF0dXJlMDE=',
      },
      {
        type: 'reasoning',
        text: '',
        redacted: 'EmwKAhgBEgy0ZG1SZWRhY3RlZA0xVGhpcyBpcyBvcGFxdWU=',
        providerMetadata: { anthropic: { redactedThinking: true } },
      },
      { type: 'text', text: 'Done.' },
    ]);
    expect(response.finishReason).toBe('stop');
  });

  it('gives a tool call whose input streamed as one empty fragment "{}" as arguments', async () => {
    const { parts, response } = await streamed('anthropic/stream-tool-use-empty-input.chunks.jsonl');
    expect(parts).toContainEqual({
      type: 'tool-call',
      id: 'toolu_01TdmRefresh000001',
      name: 'refresh_list',
      arguments: '{}',
      index: 1,
    });
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Refreshing the list.' },
      { type: 'tool_call', id: 'toolu_01TdmRefresh000001', name: 'refresh_list', arguments: '{}' },
    ]);
    expect(response.usage).toEqual(usage(380, 33));
  });
});
