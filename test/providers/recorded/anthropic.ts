/** Recorded Anthropic Messages replies replayed through the Anthropic adapter. */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { createAnthropic } from '../../../src/providers/anthropic/index.js';
import { RECORDED_FIXTURES as recorded } from '../fixture-files.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { failure, fixtureReplies, type StreamingModel } from '../helpers.js';

/** Registers the replays of the recorded Anthropic Messages files. */
export function recordedAnthropic(): void {
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

  const { streamed, generated } = fixtureReplies(server, claude, ask, recorded);

  // Independent oracle: joins the deltas of one kind straight from the fixture's JSON.
  function joined(file: string, deltaType: string, field: string): string {
    return recorded
      .events(file)
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

  describe('Anthropic adapter: non-streamed fixtures', () => {
    it('reads a reply cut by max_tokens as finishReason length (anthropic/nonstream-max-tokens.json)', async () => {
      const response = await generated('anthropic/nonstream-max-tokens.json');
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: 'I need more information to prepare a brief for you. Could you please provide:\n\n1. **What kind of brief** do you need? (project brief',
            },
          ],
        },
        finishReason: 'length',
        usage: usage(2497, 32),
        responseId: 'msg_01B7iXdj8CDnjU3aBLD4sHoU',
      });
      expect(server.lastRequest().url).toBe('/v1/messages');
    });

    it('reads text and two parallel tool_use blocks in order (anthropic/nonstream-parallel-tool-use.json)', async () => {
      const response = await generated('anthropic/nonstream-parallel-tool-use.json');
      expect(response.message.content).toEqual([
        { type: 'text', text: "I'll add and multiply the numbers 2 and 3 for you." },
        { type: 'tool_call', id: 'toolu_01StBeRxDEwsqcc3arbDgpS9', name: 'add', arguments: '{"a":2,"b":3}' },
        {
          type: 'tool_call',
          id: 'toolu_01AC6WQhj2iRkdYHgTAGMpVQ',
          name: 'multiply',
          arguments: '{"a":2,"b":3}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(507, 137));
      expect(response.responseId).toBe('msg_01SKkVkB84yWcweNDwx31xBd');
    });

    it('keeps the thinking signature next to the tool call (anthropic/nonstream-thinking-tool-use.json)', async () => {
      const response = await generated('anthropic/nonstream-thinking-tool-use.json');
      const [thinking, call] = response.message.content;
      expect(thinking).toMatchObject({
        type: 'reasoning',
        text: expect.stringMatching(
          /^The user is asking about the weather in Florence, Italy\..*function call\.$/,
        ),
        signature: expect.stringMatching(/^Es8DCkYICxgCKkBROcM3239oIjVRtMTZin6U.*vcwomAtRgB$/),
      });
      expect(call).toEqual({
        type: 'tool_call',
        id: 'toolu_014azqsWLU8Djh6RhmBGRC2u',
        name: 'weather',
        arguments: '{"location":"Florence, Italy"}',
      });
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(424, 118));
    });

    it('maps a 400 invalid_request_error body to bad_request (anthropic/error-400-invalid-request.json)', async () => {
      server.handle(serveFixture('anthropic/error-400-invalid-request.json', { from: recorded }));
      const error = await failure(claude().generate(ask));
      expect(error.kind).toBe('bad_request');
      expect(error.status).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(
        'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: srvtoolu_issue_17366_invalid. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      );
      expect(error.model).toBe('anthropic:claude-sonnet-4-5');
    });

    it('maps a 404 not_found_error body to not_found (anthropic/error-404-not-found.json)', async () => {
      server.handle(serveFixture('anthropic/error-404-not-found.json', { from: recorded }));
      const error = await failure(claude().stream(ask)[Symbol.asyncIterator]().next());
      expect(error.kind).toBe('not_found');
      expect(error.status).toBe(404);
      expect(error.message).toBe('model: claude-sonet-4-5');
    });
  });

  describe('Anthropic adapter: streamed fixtures', () => {
    it('streams text past a ping and ends with end_turn usage (anthropic/stream-text-ping.chunks.jsonl)', async () => {
      const { parts, response } = await streamed('anthropic/stream-text-ping.chunks.jsonl');
      expect(parts).toEqual([
        { type: 'text-delta', delta: 'Hello', id: '0' },
        { type: 'text-delta', delta: '! I', id: '0' },
        { type: 'text-delta', delta: "'m doing well, thank you for asking", id: '0' },
        { type: 'text-delta', delta: '. How are you doing today?', id: '0' },
        { type: 'text-delta', delta: ' Is', id: '0' },
        { type: 'text-delta', delta: ' there anything I can help you with?', id: '0' },
        {
          type: 'finish',
          finishReason: 'stop',
          usage: usage(12, 30),
          responseId: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
        },
      ]);
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
        },
      ]);
      expect(server.lastRequest().body.stream).toBe(true);
    });

    it('counts cache reads as cached input and stops with length (anthropic/stream-max-tokens.chunks.jsonl)', async () => {
      const { parts, response } = await streamed('anthropic/stream-max-tokens.chunks.jsonl');
      expect(parts).toEqual([
        { type: 'text-delta', delta: 'OK', id: '0' },
        {
          type: 'finish',
          finishReason: 'length',
          usage: usage(3 + 18639, 1, 18639),
          responseId: 'msg_011CczBWmS717HsNJwaC9mWM',
        },
      ]);
      expect(response.finishReason).toBe('length');
    });

    it('assembles two parallel tool calls from padded input_json_delta frames (anthropic/stream-parallel-tool-use.sse)', async () => {
      const { parts, response } = await streamed('anthropic/stream-parallel-tool-use.sse');
      expect(parts.filter((p) => p.type === 'tool-call-delta' || p.type === 'tool-call')).toEqual([
        {
          type: 'tool-call-delta',
          index: 1,
          id: 'toolu_01UYxUYC2zRPY8wiutnF48eP',
          name: 'add',
          argsDelta: '',
        },
        { type: 'tool-call-delta', index: 1, argsDelta: '{"a": 2' },
        { type: 'tool-call-delta', index: 1, argsDelta: ', "b"' },
        { type: 'tool-call-delta', index: 1, argsDelta: ': 3}' },
        {
          type: 'tool-call',
          id: 'toolu_01UYxUYC2zRPY8wiutnF48eP',
          name: 'add',
          arguments: '{"a": 2, "b": 3}',
          index: 1,
        },
        {
          type: 'tool-call-delta',
          index: 2,
          id: 'toolu_01VaRx1jpWCvPhi7L4kywAcd',
          name: 'multiply',
          argsDelta: '',
        },
        { type: 'tool-call-delta', index: 2, argsDelta: '{"a": 2' },
        { type: 'tool-call-delta', index: 2, argsDelta: ', "b":' },
        { type: 'tool-call-delta', index: 2, argsDelta: ' 3}' },
        {
          type: 'tool-call',
          id: 'toolu_01VaRx1jpWCvPhi7L4kywAcd',
          name: 'multiply',
          arguments: '{"a": 2, "b": 3}',
          index: 2,
        },
      ]);
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll add and multiply the numbers 2 and 3 for you." },
            {
              type: 'tool_call',
              id: 'toolu_01UYxUYC2zRPY8wiutnF48eP',
              name: 'add',
              arguments: '{"a": 2, "b": 3}',
            },
            {
              type: 'tool_call',
              id: 'toolu_01VaRx1jpWCvPhi7L4kywAcd',
              name: 'multiply',
              arguments: '{"a": 2, "b": 3}',
            },
          ],
        },
        finishReason: 'tool_calls',
        usage: usage(502, 137),
        responseId: 'msg_01PSvJdjd5keNSD63VHjYzex',
      });
    });

    it('streams thinking with its signature, then the answer (anthropic/stream-thinking-text.sse)', async () => {
      const file = 'anthropic/stream-thinking-text.sse';
      const { parts, response } = await streamed(file);
      const signature = parts.find((p) => p.type === 'reasoning-delta' && p.signature);
      expect(signature).toMatchObject({ type: 'reasoning-delta', delta: '', id: '0' });
      const thinking =
        'This is a straightforward question about pedestrian safety. I should provide clear, helpful advice about how to safely cross a street. This is basic safety information that could help prevent accidents.';
      expect(joined(file, 'thinking_delta', 'thinking')).toBe(thinking);
      const [reasoning, text, ...rest] = response.message.content;
      expect(rest).toEqual([]);
      expect(reasoning).toEqual({
        type: 'reasoning',
        text: thinking,
        signature: joined(file, 'signature_delta', 'signature'),
      });
      expect((reasoning as { signature: string }).signature).toMatch(
        /^EvMCCkYICxgCKkCHP2cSuEdcJK\/0rF.*gb7wwzDvP\/UhjfQYAQ==$/,
      );
      expect(text).toEqual({ type: 'text', text: joined(file, 'text_delta', 'text') });
      expect((text as { text: string }).text).toMatch(
        /^Here are the basic steps for safely crossing the street:\n\n[\s\S]*Always prioritize safety over speed when crossing streets\.$/,
      );
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual(usage(43, 282));
      expect(response.responseId).toBe('msg_01ALwQ87pTS7hH1PjSdC9wJD');
    });

    it('streams signed thinking then a tool call, also when frames are split mid-event (anthropic/stream-thinking-tool-use.sse)', async () => {
      const file = 'anthropic/stream-thinking-tool-use.sse';
      const whole = await streamed(file);
      const split = await streamed(file, { chunkSize: 7 });
      expect(split.parts).toEqual(whole.parts);
      const [reasoning, call] = whole.response.message.content;
      expect(reasoning).toEqual({
        type: 'reasoning',
        text: 'The user is asking for weather information for Florence, Italy. I have access to a weather function that takes a location parameter. The user has provided the location as "Florence, Italy" which is specific enough for the weather function. I have all the required parameters to make the function call.',
        signature: joined(file, 'signature_delta', 'signature'),
      });
      expect((reasoning as { signature: string }).signature).toMatch(
        /^EtYDCkYICxgCKkAVHEWRYo6R.*VeDhPFVAYAQ==$/,
      );
      expect(call).toEqual({
        type: 'tool_call',
        id: 'toolu_01Js4AMfx5qpTLhwTusnvT68',
        name: 'weather',
        arguments: '{"location": "Florence, Italy"}',
      });
      expect(whole.response.finishReason).toBe('tool_calls');
      expect(whole.response.usage).toEqual(usage(424, 119));
    });

    it('gives a tool call with an empty input "{}" as arguments (anthropic/stream-tool-use-empty-input.chunks.jsonl)', async () => {
      const { parts, response } = await streamed('anthropic/stream-tool-use-empty-input.chunks.jsonl');
      expect(parts).toContainEqual({
        type: 'tool-call',
        id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP',
        name: 'updateIssueList',
        arguments: '{}',
        index: 1,
      });
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll update the issue list for you." },
            {
              type: 'tool_call',
              id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP',
              name: 'updateIssueList',
              arguments: '{}',
            },
          ],
        },
        finishReason: 'tool_calls',
        usage: usage(565, 48),
        responseId: 'msg_01GE2RKp1VYsPzdFs3sS9z5S',
      });
    });
  });
}
