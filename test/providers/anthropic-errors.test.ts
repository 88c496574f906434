import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import {
  fixtureBody,
  resetBeforeResponse,
  respond,
  respondSSE,
  stall,
  useFixtureServer,
} from './fixture-server.js';
import { drain, failure, type StreamingModel } from './helpers.js';

const server = useFixtureServer();

function claude(): StreamingModel {
  return createAnthropic({ apiKey: 'sk-ant-test', baseURL: `${server.url}/v1` })(
    'claude-sonnet-4-5',
  ) as StreamingModel;
}

const ask: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] };

// Error bodies in the shape https://docs.anthropic.com/en/api/errors documents (no recorded files exist).
const errorBody = (type: string, message: string) => ({ type: 'error', error: { type, message } });

// The first frames of a recorded stream, for faults injected after it started.
const started = fixtureBody('anthropic/stream-text-ping.chunks.jsonl').split(
  'event: content_block_stop',
)[0] as string;

describe('Anthropic errors', () => {
  it('turns an `event: error` overloaded_error frame mid-stream into a retryable overloaded error', async () => {
    const frame = `event: error\ndata: ${JSON.stringify(errorBody('overloaded_error', 'Overloaded'))}\n\n`;
    server.handle(respondSSE(started + frame));
    const seen: ModelStreamPart[] = [];
    const error = await failure(drain(claude().stream(ask), seen));
    expect(error.kind).toBe('overloaded');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('Overloaded');
    expect(seen.map((p) => p.type)).toContain('text-delta');
  });

  it('maps 429 rate_limit_error with retry-after to rate_limit and the wait in ms', async () => {
    server.handle(
      respond(
        429,
        errorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
        { 'retry-after': '7' },
      ),
    );
    const error = await failure(claude().generate(ask));
    expect(error.kind).toBe('rate_limit');
    expect(error.retryAfterMs).toBe(7000);
    expect(error.status).toBe(429);
  });

  it('maps HTTP 529 overloaded_error to overloaded', async () => {
    server.handle(respond(529, errorBody('overloaded_error', 'Overloaded')));
    const error = await failure(claude().generate(ask));
    expect(error.kind).toBe('overloaded');
    expect(error.status).toBe(529);
  });

  it('maps a 400 "prompt is too long" to context_length with the window it names', async () => {
    server.handle(
      respond(400, errorBody('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum')),
    );
    const error = await failure(claude().generate(ask));
    expect(error.kind).toBe('context_length');
    expect(error.contextLimit).toBe(200000);
    expect(error.retryable).toBe(false);
  });

  it('maps 401 authentication_error to auth', async () => {
    server.handle(respond(401, errorBody('authentication_error', 'invalid x-api-key')));
    const error = await failure(claude().generate(ask));
    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
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
