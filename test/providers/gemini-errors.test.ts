import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { jsonPathKeys, PartialArgs } from '../../src/providers/gemini/partial-args.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { respond, respondSSE, serveFixture, stall, useFixtureServer } from './fixture-server.js';
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

// The first frame of a stream, for faults injected after it started.
const firstFrame = `${OWN_FIXTURES.read('gemini/stream-thinking-text.sse').split('\r\n\r\n')[0]}\r\n\r\n`;

describe('Gemini errors', () => {
  // [fixture, kind, retryable, extra fields]
  const httpErrors: Array<[string, string, boolean, Record<string, unknown>?]> = [
    ['gemini/error-400-invalid-argument.json', 'bad_request', false],
    // An invalid key arrives as 400 INVALID_ARGUMENT; its ErrorInfo reason makes it an auth failure.
    ['gemini/error-400-api-key-invalid.json', 'auth', false],
    ['gemini/error-400-token-limit.json', 'context_length', false, { contextLimit: 1048576 }],
    ['gemini/error-403-permission-denied.json', 'auth', false],
    ['gemini/error-404-not-found.json', 'not_found', false],
    ['gemini/error-429-resource-exhausted.json', 'rate_limit', true, { retryAfterMs: 17000 }],
    ['gemini/error-500-internal.json', 'server', true],
    ['gemini/error-503-overloaded.json', 'overloaded', true],
  ];

  for (const [file, kind, retryable, extra] of httpErrors) {
    it(`maps ${file} to ${kind}${retryable ? ' (retryable)' : ''} with the provider's message`, async () => {
      server.handle(serveFixture(file));
      const error = await failure(gemini().generate(ask));
      expect(error).toMatchObject({
        kind,
        retryable,
        status: OWN_FIXTURES.manifest().get(file)?.httpStatus,
        message: OWN_FIXTURES.json(file).error.message,
        model: 'gemini:gemini-2.5-flash',
        ...extra,
      });
    });
  }

  it('maps an error status on a stream request before any chunk', async () => {
    server.handle(serveFixture('gemini/error-403-permission-denied.json'));
    expect((await failure(gemini().stream(ask)[Symbol.asyncIterator]().next())).kind).toBe('auth');
  });

  it('throws the error object a stream sends in place of a chunk, after the parts before it', async () => {
    server.handle(serveFixture('gemini/stream-error-internal.sse'));
    const seen: ModelStreamPart[] = [];
    const thrown = await failure(drain(gemini().stream(ask), seen));
    expect(thrown.kind).toBe('server');
    expect(thrown.status).toBe(500);
    expect(thrown.message).toMatch(/^An internal error has occurred\./);
    expect(seen.map((p) => p.type)).toEqual(['reasoning-delta']);
  });

  it('rejects a stream that ends without a finishReason as invalid_response', async () => {
    server.handle(respondSSE(firstFrame));
    expect((await failure(drain(gemini().stream(ask)))).kind).toBe('invalid_response');
  });

  it('fails with aborted when the signal aborts mid-stream', async () => {
    server.handle(stall(firstFrame));
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
