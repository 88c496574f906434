/**
 * Recorded Chat Completions replies (OpenAI, Azure, DeepSeek, Kimi, Qwen, GLM,
 * OpenRouter, Groq) replayed through the OpenAI adapter.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/core/errors.js';
import type { ModelRequest, ModelStreamPart } from '../../../src/model/types.js';
import { createOpenAI } from '../../../src/providers/openai/index.js';
import { RECORDED_FIXTURES as recorded } from '../fixture-files.js';
import { serveFixture, useFixtureServer } from '../fixture-server.js';
import { fixtureReplies, rejectionOf } from '../helpers.js';

/** Registers the replays of the recorded Chat Completions files (OpenAI and compatible servers). */
export function recordedOpenAIChat(): void {
  const server = useFixtureServer();
  const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

  function model() {
    return createOpenAI({ baseURL: `${server.get().url}/v1`, apiKey: 'sk-test' })('test-model');
  }

  const { streamed: streamFixture, generated: generateFixture } = fixtureReplies(
    server,
    model,
    HELLO,
    recorded,
  );

  function joined(parts: ModelStreamPart[], type: 'text-delta' | 'reasoning-delta'): string {
    return parts.map((p) => (p.type === type ? p.delta : '')).join('');
  }

  // Independent of the adapter: the concatenated deltas of a fixture, read from the file.
  function deltasOf(file: string, field: 'content' | 'reasoning_content'): string {
    return recorded
      .events(file)
      .map((chunk) => chunk.choices?.[0]?.delta?.[field] ?? '')
      .join('');
  }

  const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, reasoningTokens = 0) => ({
    inputTokens,
    outputTokens,
    cachedInputTokens,
    reasoningTokens,
  });

  describe('OpenAI Chat streams (recorded fixtures)', () => {
    it('streams text and reads the choices:[] usage chunk (openai-chat/stream-text-usage.sse)', async () => {
      const { parts, response } = await streamFixture('openai-chat/stream-text-usage.sse');
      expect(joined(parts, 'text-delta')).toBe('The capital of Mexico is Mexico City.');
      expect(response.message.content).toEqual([
        { type: 'text', text: 'The capital of Mexico is Mexico City.' },
      ]);
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual(usage(14, 8));
      expect(response.responseId).toBe('chatcmpl-C2P1wP1damHwC6sXvGAIh5PMvH6wM');
      expect(parts.at(-1)?.type).toBe('finish');
    });

    it('joins ~300 text deltas split across TCP chunks (openai-chat/stream-text-long.chunks.jsonl)', async () => {
      const file = 'openai-chat/stream-text-long.chunks.jsonl';
      const { response } = await streamFixture(file, { chunkSize: 97 });
      const text = (response.message.content[0] as { text: string }).text;
      expect(text.startsWith('**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually')).toBe(true);
      expect(text.endsWith('connected through shared human experiences and mutual respect.')).toBe(true);
      expect(text).toHaveLength(1724);
      expect(text).toBe(deltasOf(file, 'content'));
      expect(response.usage).toEqual(usage(16, 300));
      expect(response.finishReason).toBe('stop');
    });

    it('skips Azure prompt_filter_results chunks with empty ids (openai-chat/azure-stream-content-filter.chunks.jsonl)', async () => {
      const { response } = await streamFixture('openai-chat/azure-stream-content-filter.chunks.jsonl');
      expect(response.message.content).toEqual([{ type: 'text', text: 'Capital of Denmark.' }]);
      expect(response.responseId).toBe('chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt');
      expect(response.usage).toEqual(usage(15, 78, 0, 64));
      expect(response.finishReason).toBe('stop');
    });

    it('assembles two parallel tool calls from indexed fragments (openai-chat/stream-parallel-tool-calls.sse)', async () => {
      const { parts, response } = await streamFixture('openai-chat/stream-parallel-tool-calls.sse');
      expect(parts.filter((p) => p.type === 'tool-call-delta').every((p) => 'index' in p)).toBe(true);
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'call_ehIWdjL1abZk1h8FWGLQ0Hie',
          name: 'add',
          arguments: '{"a": 2, "b": 3}',
        },
        {
          type: 'tool_call',
          id: 'call_fBSgA47J5VeONggizTIvl7AH',
          name: 'multiply',
          arguments: '{"a": 2, "b": 3}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(106, 50));
    });

    it('joins tool-call arguments arriving in five fragments (openai-chat/stream-tool-call-args-split.sse)', async () => {
      const { response } = await streamFixture('openai-chat/stream-tool-call-args-split.sse', {
        chunkSize: 13,
      });
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
          name: 'get_capital',
          arguments: '{"country":"UK"}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(53, 15));
    });

    it('throws the error inside a normal chunk after SSE comments (openai-compatible/openrouter-stream-length-inline-error.sse)', async () => {
      server
        .get()
        .handle(
          serveFixture('openai-compatible/openrouter-stream-length-inline-error.sse', { from: recorded }),
        );
      const parts: ModelStreamPart[] = [];
      const error = await rejectionOf(
        (async () => {
          for await (const part of model().stream(HELLO)) parts.push(part);
        })(),
      );
      expect(joined(parts, 'reasoning-delta')).toBe('We need to respond to a greeting. The user');
      expect(error).toBeInstanceOf(ModelError);
      expect(error.message).toBe('Token limit reached');
      expect(error.status).toBe(400);
      // Output was already produced: this is the output budget, not a rejected prompt.
      expect(error.kind).toBe('bad_request');
    });

    it('throws an `event: error` frame as a typed error (openai-compatible/groq-stream-error-event.sse)', async () => {
      server.get().handle(serveFixture('openai-compatible/groq-stream-error-event.sse', { from: recorded }));
      const parts: ModelStreamPart[] = [];
      const error = await rejectionOf(
        (async () => {
          for await (const part of model().stream(HELLO)) parts.push(part);
        })(),
      );
      expect(joined(parts, 'reasoning-delta')).toMatch(
        /^We need to call the tool with invalid parameters first/,
      );
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe('invalid_response');
      expect(error.retryable).toBe(true);
      expect(error.status).toBe(400);
      expect(error.message).toMatch(
        /^Tool call validation failed: .*get_something_by_name did not match schema/,
      );
    });

    it('captures DeepSeek reasoning_content and cache-hit usage (deepseek/stream-reasoning-content.chunks.jsonl)', async () => {
      const file = 'deepseek/stream-reasoning-content.chunks.jsonl';
      const { response } = await streamFixture(file);
      const [reasoning, text] = response.message.content as Array<{ type: string; text: string }>;
      expect(reasoning?.type).toBe('reasoning');
      expect(reasoning?.text).toMatch(
        /^We need to count the number of the letter "r" in the word "strawberry"/,
      );
      expect(reasoning?.text).toMatch(/Thus, the answer is 3\.$/);
      expect(reasoning?.text).toBe(deltasOf(file, 'reasoning_content'));
      expect(text).toEqual({ type: 'text', text: 'The word "strawberry" contains three "r"s.' });
      expect(response.usage).toEqual(usage(18, 219, 0, 205));
      expect(response.finishReason).toBe('stop');
    });

    it('streams DeepSeek reasoning then a per-character tool call (deepseek/stream-reasoning-tool-call.chunks.jsonl)', async () => {
      const { response } = await streamFixture('deepseek/stream-reasoning-tool-call.chunks.jsonl');
      const [reasoning, call] = response.message.content;
      expect(reasoning).toMatchObject({ type: 'reasoning' });
      expect((reasoning as { text: string }).text).toMatch(
        /^The user is asking for the weather in San Francisco\./,
      );
      expect(call).toEqual({
        type: 'tool_call',
        id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      });
      expect(response.usage).toEqual(usage(339, 83, 320, 39));
      expect(response.finishReason).toBe('tool_calls');
    });

    it('takes whole tool calls in one chunk and the last usage (kimi/stream-parallel-tool-calls.sse)', async () => {
      const { response } = await streamFixture('kimi/stream-parallel-tool-calls.sse');
      expect(response.message.content).toEqual([
        {
          type: 'text',
          text: "I'll perform both addition and multiplication on the numbers 2 and 3 for you.",
        },
        { type: 'tool_call', id: 'functions.add:0', name: 'add', arguments: '{"a":2,"b":3}' },
        { type: 'tool_call', id: 'functions.multiply:1', name: 'multiply', arguments: '{"a":2,"b":3}' },
      ]);
      expect(response.usage).toEqual(usage(201, 58));
      expect(response.finishReason).toBe('tool_calls');
    });

    it('survives the chunk id changing mid-stream (kimi/stream-reasoning-tool-call.sse)', async () => {
      const { response } = await streamFixture('kimi/stream-reasoning-tool-call.sse');
      const content = response.message.content;
      expect(content[0]).toMatchObject({ type: 'reasoning' });
      expect((content[0] as { text: string }).text).toBe(
        'I need to get the weather information for Florence, Italy. I\'ll call the weather function with "Florence" as the location parameter. ',
      );
      expect(content.filter((p) => p.type === 'tool_call')).toEqual([
        {
          type: 'tool_call',
          id: 'functions.weather:0',
          name: 'weather',
          arguments: '{"location": "Florence"}',
        },
      ]);
      expect(response.responseId).toBe('chatcmpl-6e0335f41a00481da298cc3f');
      expect(response.usage).toEqual(usage(76, 47, 64, 34));
      expect(response.finishReason).toBe('tool_calls');
    });

    it('streams Qwen thinking with a separate usage chunk, split mid-UTF-8 (qwen/stream-reasoning-content.chunks.jsonl)', async () => {
      const file = 'qwen/stream-reasoning-content.chunks.jsonl';
      const { response } = await streamFixture(file, { chunkSize: 5 });
      const [reasoning, text] = response.message.content as Array<{ type: string; text: string }>;
      expect(reasoning?.text).toMatch(/^We are asked: "How many 'r's are in the word 'strawberry'\?"/);
      expect(reasoning?.text).toBe(deltasOf(file, 'reasoning_content'));
      expect(text?.text).toMatch(/^The word \*\*"strawberry"\*\* contains \*\*3\*\* instances/);
      expect(text?.text).toContain('- **s** → not r');
      expect(text?.text).toBe(deltasOf(file, 'content'));
      expect(response.usage).toEqual(usage(24, 1355, 0, 1084));
      expect(response.finishReason).toBe('stop');
    });

    it('keeps the first id when fragments repeat id:"" (qwen/stream-tool-call.chunks.jsonl)', async () => {
      const { response } = await streamFixture('qwen/stream-tool-call.chunks.jsonl');
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'call_eee11723464a4b9eb8cee71d',
          name: 'weather',
          arguments: '{"location": "San Francisco"}',
        },
      ]);
      expect(response.usage).toEqual(usage(295, 22));
      expect(response.finishReason).toBe('tool_calls');
    });

    it('streams GLM reasoning, text and a tool call (zai-glm/stream-reasoning-tool-call.sse)', async () => {
      const { response } = await streamFixture('zai-glm/stream-reasoning-tool-call.sse');
      const [reasoning, text, call] = response.message.content;
      expect((reasoning as { text: string }).text).toMatch(
        /^The user is asking about the weather in Florence, Italy\./,
      );
      expect(text).toEqual({ type: 'text', text: "I'll check the weather in Florence, Italy for you." });
      expect(call).toEqual({
        type: 'tool_call',
        id: 'call_330c741a86144cb7a385bc6d',
        name: 'weather',
        arguments: '{"location":"Florence"}',
      });
      expect(response.usage).toEqual(usage(173, 87, 172, 63));
      expect(response.finishReason).toBe('tool_calls');
    });
  });

  describe('OpenAI Chat non-streaming replies (recorded fixtures)', () => {
    it('maps a text completion (openai-chat/nonstream-text.json)', async () => {
      const response = await generateFixture('openai-chat/nonstream-text.json');
      const text = (response.message.content[0] as { text: string }).text;
      expect(text.startsWith('**Holiday Name:** Galaxy Day')).toBe(true);
      expect(text).toContain('darkness\u2014mirroring our quest');
      expect(response.finishReason).toBe('stop');
      expect(response.usage).toEqual(usage(16, 363));
      expect(response.responseId).toBe('chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU');
      expect(server.get().lastRequest().body.stream).toBeUndefined();
    });

    it('maps one tool call with null content (openai-chat/nonstream-tool-call.json)', async () => {
      const response = await generateFixture('openai-chat/nonstream-tool-call.json');
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'call_15X0Q2MmkK1IeFfiol9LFlqb',
          name: 'weather',
          arguments: '{"location":"Florence, Italy"}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(61, 16));
    });

    it('maps parallel tool calls (openai-chat/nonstream-parallel-tool-calls.json)', async () => {
      const response = await generateFixture('openai-chat/nonstream-parallel-tool-calls.json');
      expect(response.message.content).toEqual([
        {
          type: 'tool_call',
          id: 'call_fifE5poZ3dg3JDUKGFi48NGq',
          name: 'add',
          arguments: '{"a": 2, "b": 3}',
        },
        {
          type: 'tool_call',
          id: 'call_cvvIly4eGLZUYOMhAviT8jAF',
          name: 'multiply',
          arguments: '{"a": 2, "b": 3}',
        },
      ]);
      expect(response.usage).toEqual(usage(110, 50));
    });

    it('reports finish_reason length (deepseek/nonstream-finish-length.json)', async () => {
      const response = await generateFixture('deepseek/nonstream-finish-length.json');
      expect(response.finishReason).toBe('length');
      expect((response.message.content[0] as { text: string }).text).toMatch(/people exchange$/);
      expect(response.usage).toEqual(usage(13, 300));
      expect(response.responseId).toBe('00f10ecd-60b3-4707-b5db-e4bcadf7aea1');
    });

    it('maps reasoning_content before the answer (deepseek/nonstream-reasoning.json)', async () => {
      const response = await generateFixture('deepseek/nonstream-reasoning.json');
      const [reasoning, text] = response.message.content as Array<{ type: string; text: string }>;
      expect(reasoning?.type).toBe('reasoning');
      expect(reasoning?.text).toMatch(/^We are asked: "How many 'r's are in the word 'strawberry'\?"/);
      expect(reasoning?.text).toMatch(/So answer is 3\.$/);
      expect(text).toEqual({
        type: 'text',
        text: 'The word "strawberry" contains three instances of the letter "r": one after the "t" and two before the "y".',
      });
      expect(response.usage).toEqual(usage(18, 345, 0, 315));
    });

    it('maps Qwen reasoning_content (qwen/nonstream-reasoning.json)', async () => {
      const response = await generateFixture('qwen/nonstream-reasoning.json');
      const [reasoning, text] = response.message.content as Array<{ type: string; text: string }>;
      expect(reasoning?.text).toMatch(/So final answer: 3\.$/);
      expect(text?.text).toMatch(/\*\*Answer: 3\*\* 🍓$/);
      expect(response.usage).toEqual(usage(24, 1668, 0, 1353));
      expect(response.responseId).toBe('chatcmpl-296c9a8c-4984-9b34-9b83-844f6208995e');
    });

    it('maps GLM reasoning, text and a tool call with cached tokens (zai-glm/nonstream-reasoning-tool-call.json)', async () => {
      const response = await generateFixture('zai-glm/nonstream-reasoning-tool-call.json');
      expect(response.message.content).toEqual([
        {
          type: 'reasoning',
          text: 'The user is asking for the weather in Florence, Italy. I have access to a weather function that can get weather information for a location. The function requires a "location" parameter, and the user has specified "Florence, Italy". I should use this exact location string to get the weather information.',
        },
        { type: 'text', text: "I'll get the current weather information for Florence, Italy for you." },
        {
          type: 'tool_call',
          id: 'call_-7807252050131023498',
          name: 'weather',
          arguments: '{"location":"Florence, Italy"}',
        },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(response.usage).toEqual(usage(173, 89, 169, 61));
    });
  });

  describe('OpenAI Chat error bodies (recorded fixtures)', () => {
    it('maps a 400 unsupported_parameter to bad_request (openai-chat/error-400-unsupported-parameter.json)', async () => {
      const error = await rejectionOf(generateFixture('openai-chat/error-400-unsupported-parameter.json'));
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe('bad_request');
      expect(error.status).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      );
      expect(error.model).toBe('openai:test-model');
    });

    it('maps a 404 model_not_found to not_found (openai-chat/error-404-model-not-found.json)', async () => {
      const error = await rejectionOf(generateFixture('openai-chat/error-404-model-not-found.json'));
      expect(error.kind).toBe('not_found');
      expect(error.status).toBe(404);
      expect(error.message).toBe('The model `gpt-5.2-proo` does not exist or you do not have access to it.');
    });

    it('maps an OpenRouter 429 to a retryable rate_limit with the upstream words (openai-compatible/openrouter-error-429.json)', async () => {
      server.get().handle(
        serveFixture('openai-compatible/openrouter-error-429.json', {
          from: recorded,
          headers: { 'retry-after': '7' },
        }),
      );
      const error = await rejectionOf(
        model().stream(HELLO)[Symbol.asyncIterator]().next() ?? Promise.resolve(),
      );
      expect(error.kind).toBe('rate_limit');
      expect(error.status).toBe(429);
      expect(error.retryable).toBe(true);
      expect(error.retryAfterMs).toBe(7000);
      expect(error.message).toMatch(
        /^Provider returned error: google\/gemini-2\.0-flash-exp:free is temporarily rate-limited/,
      );
    });
  });
}
