import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { resetBeforeResponse, respondSSE, serveFixture, stall, useFixtureServer } from './fixture-server.js';
import { drain, failure, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function claude(): StreamingModel {
  return createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })(
    'claude-sonnet-4-5',
  ) as StreamingModel;
}

const ask: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] };

// The first frames of a stream, for faults injected after it started.
const started = OWN_FIXTURES.body('anthropic/stream-text.sse').split(
  'event: content_block_stop',
)[0] as string;

describe('Anthropic errors', () => {
  // [fixture, kind, retryable, extra fields]
  const httpErrors: Array<[string, string, boolean, Record<string, unknown>?]> = [
    ['anthropic/error-400-invalid-request.json', 'bad_request', false],
    ['anthropic/error-400-prompt-too-long.json', 'context_length', false, { contextLimit: 200000 }],
    ['anthropic/error-401-authentication.json', 'auth', false],
    ['anthropic/error-403-permission.json', 'auth', false],
    ['anthropic/error-404-not-found.json', 'not_found', false],
    ['anthropic/error-413-request-too-large.json', 'payload_too_large', false],
    ['anthropic/error-429-rate-limit.json', 'rate_limit', true, { retryAfterMs: 7000 }],
    ['anthropic/error-500-api-error.json', 'server', true],
    ['anthropic/error-529-overloaded.json', 'overloaded', true],
  ];

  for (const [file, kind, retryable, extra] of httpErrors) {
    it(`maps ${file} to ${kind}${retryable ? ' (retryable)' : ''} with the provider's message`, async () => {
      server.handle(serveFixture(file));
      const error = await failure(claude().generate(ask));
      expect(error).toMatchObject({
        kind,
        retryable,
        status: OWN_FIXTURES.manifest().get(file)?.httpStatus,
        message: OWN_FIXTURES.json(file).error.message,
        model: 'anthropic:claude-sonnet-4-5',
        ...extra,
      });
    });
  }

  it('maps an error status on a stream request before any event', async () => {
    server.handle(serveFixture('anthropic/error-404-not-found.json'));
    const error = await failure(claude().stream(ask)[Symbol.asyncIterator]().next());
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('model: claude-sonnet-9');
  });

  it('turns an `event: error` overloaded_error frame mid-stream into a retryable overloaded error', async () => {
    server.handle(serveFixture('anthropic/stream-error-overloaded.sse'));
    const seen: ModelStreamPart[] = [];
    const error = await failure(drain(claude().stream(ask), seen));
    expect(error.kind).toBe('overloaded');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(529);
    expect(error.message).toBe('Overloaded');
    expect(seen).toEqual([
      { type: 'text-delta', delta: 'Hello', id: '0' },
      { type: 'text-delta', delta: ', I am', id: '0' },
    ]);
  });

  it('rejects a stream that ends before message_stop as invalid_response', async () => {
    server.handle(respondSSE(started));
    const error = await failure(drain(claude().stream(ask)));
    expect(error.kind).toBe('invalid_response');
  });

  it('reports a reset connection as a connection error', async () => {
    server.handle(resetBeforeResponse());
    const error = await failure(claude().generate(ask));
    expect(error.kind).toBe('connection');
  });

  it('fails with aborted when the signal is already aborted, without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(claude().generate(ask, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('fails with aborted when the signal aborts mid-stream', async () => {
    server.handle(stall(started));
    const controller = new AbortController();
    const stream = claude().stream(ask, { signal: controller.signal })[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toEqual({ type: 'text-delta', delta: 'Hello', id: '0' });
    controller.abort();
    const error = await failure(drain({ [Symbol.asyncIterator]: () => stream }));
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
  });
});
