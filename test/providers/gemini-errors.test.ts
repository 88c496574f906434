import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { jsonPathKeys, PartialArgs } from '../../src/providers/gemini/partial-args.js';
import { readFixture, respond, respondSSE, stall, useFixtureServer } from './fixture-server.js';
import { drain, failure, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function gemini(): StreamingModel {
  return createGemini({ apiKey: 'gm-test', baseURL: server.url })('gemini-2.5-flash') as StreamingModel;
}

const ask: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] };

const reply = (finishReason: string, text = 'partial') => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason }],
  usageMetadata: {
    promptTokenCount: 5,
    toolUsePromptTokenCount: 1,
    candidatesTokenCount: 2,
    cachedContentTokenCount: 3,
  },
});

// Error bodies in the google.rpc.Status shape the Gemini API documents (no recorded files exist for these).
const status = (code: number, name: string, message: string, details?: unknown[]) => ({
  error: { code, message, status: name, ...(details ? { details } : {}) },
});

describe('Gemini finish reasons and usage', () => {
  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['STOP', 'stop'],
  ])('maps finishReason %s to %s', async (wire, expected) => {
    server.handle(respond(200, reply(wire)));
    const response = await gemini().generate(ask);
    expect(response.finishReason).toBe(expected);
    expect(response.usage).toEqual({
      inputTokens: 5 + 1,
      outputTokens: 2,
      cachedInputTokens: 3,
      reasoningTokens: 0,
    });
  });

  it('reports a prompt blocked before any candidate as content_filter', async () => {
    server.handle(
      respond(200, { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4 } }),
    );
    const response = await gemini().generate(ask);
    expect(response.finishReason).toBe('content_filter');
    expect(response.message.content).toEqual([]);
  });

  it('rejects a reply with neither candidates nor a block reason as empty_response', async () => {
    server.handle(respond(200, { usageMetadata: { promptTokenCount: 4 } }));
    expect((await failure(gemini().generate(ask))).kind).toBe('empty_response');
  });
});

describe('Gemini errors', () => {
  it('maps 429 RESOURCE_EXHAUSTED with a RetryInfo delay to rate_limit and the wait', async () => {
    server.handle(
      respond(
        429,
        status(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' },
        ]),
      ),
    );
    const error = await failure(gemini().generate(ask));
    expect(error.kind).toBe('rate_limit');
    expect(error.retryAfterMs).toBe(17000);
  });

  it('maps 503 "The model is overloaded" to overloaded', async () => {
    server.handle(
      respond(503, status(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')),
    );
    expect((await failure(gemini().generate(ask))).kind).toBe('overloaded');
  });

  it('maps an input over the token limit to context_length with the limit', async () => {
    server.handle(
      respond(
        400,
        status(
          400,
          'INVALID_ARGUMENT',
          'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
        ),
      ),
    );
    const error = await failure(gemini().generate(ask));
    expect(error.kind).toBe('context_length');
    expect(error.contextLimit).toBe(1048576);
  });

  it('maps 403 PERMISSION_DENIED to auth', async () => {
    server.handle(respond(403, status(403, 'PERMISSION_DENIED', 'API key not valid.')));
    expect((await failure(gemini().stream(ask)[Symbol.asyncIterator]().next())).kind).toBe('auth');
  });

  it('maps 400 API_KEY_INVALID to auth, not bad_request', async () => {
    server.handle(
      respond(
        400,
        status(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' },
        ]),
      ),
    );
    const error = await failure(gemini().generate(ask));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
  });

  it('throws the error object a stream sends in place of a chunk', async () => {
    const first = readFixture('gemini/stream-thinking-text.sse').split(/\r?\n\r?\n/)[0];
    const error = JSON.stringify(status(500, 'INTERNAL', 'An internal error has occurred.'));
    server.handle(respondSSE(`${first}\n\ndata: ${error}\n\n`));
    const thrown = await failure(drain(gemini().stream(ask)));
    expect(thrown.kind).toBe('server');
    expect(thrown.message).toBe('An internal error has occurred.');
  });

  it('rejects a stream that ends without a finishReason as invalid_response', async () => {
    const first = readFixture('gemini/stream-thinking-text.sse').split(/\r?\n\r?\n/)[0];
    server.handle(respondSSE(`${first}\n\n`));
    expect((await failure(drain(gemini().stream(ask)))).kind).toBe('invalid_response');
  });

  it('fails with aborted when the signal aborts mid-stream', async () => {
    const first = readFixture('gemini/stream-thinking-text.sse').split(/\r?\n\r?\n/)[0];
    server.handle(stall(`${first}\n\n`));
    const controller = new AbortController();
    const stream = gemini().stream(ask, { signal: controller.signal })[Symbol.asyncIterator]();
    expect((await stream.next()).value).toMatchObject({ type: 'reasoning-delta' });
    controller.abort();
    const error = await failure(stream.next());
    expect(error.kind).toBe('aborted');
  });

  it('fails with aborted when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await failure(gemini().generate(ask, { signal: controller.signal }))).kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('Vertex partialArgs assembly', () => {
  it('parses dotted, indexed and quoted JSON paths and refuses others', () => {
    expect(jsonPathKeys('$.location')).toEqual(['location']);
    expect(jsonPathKeys("$.a.b[2]['c d']")).toEqual(['a', 'b', 2, 'c d']);
    expect(jsonPathKeys('location')).toBeUndefined();
    expect(jsonPathKeys('$.a[')).toBeUndefined();
  });

  it('appends string pieces and sets numbers, booleans, nulls and nested values', () => {
    const args = new PartialArgs();
    args.apply([{ jsonPath: '$.city', stringValue: 'San ', willContinue: true }]);
    args.apply([{ jsonPath: '$.city', stringValue: 'Francisco' }]);
    args.apply([
      { jsonPath: '$.days', numberValue: 3 },
      { jsonPath: '$.metric', boolValue: true },
      { jsonPath: '$.note', nullValue: null },
      { jsonPath: '$.stops[1].name', stringValue: 'Oakland' },
      { jsonPath: 'bogus', stringValue: 'x' },
    ]);
    expect(args.value).toEqual({
      city: 'San Francisco',
      days: 3,
      metric: true,
      note: null,
      stops: [undefined, { name: 'Oakland' }],
    });
  });
});
