import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/seams.js';
import {
  contextLimitFromMessage,
  errorFromResponse,
  isContextLengthMessage,
  networkError,
  parseRetryAfter,
  postJSON,
} from '../../src/providers/shared/http.js';
import { readSSE, type SSEEvent } from '../../src/providers/shared/sse.js';
import { OWN_FIXTURES } from './fixture-files.js';
import { respond, respondSSE, stall, useFixtureServer } from './fixture-server.js';
import { rejectionOf } from './helpers.js';

const server = useFixtureServer();
const CTX = { provider: 'p', model: 'm' };

/** A clock whose timers fire only when the test advances it. */
function fakeClock(start = 0): Clock & { advance(ms: number): void; pending(): number } {
  let now = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance(ms) {
      now += ms;
      for (const timer of [...timers]) {
        if (timer.at <= now) {
          timers.delete(timer);
          timer.fn();
        }
      }
    },
    pending: () => timers.size,
  };
}

async function events(body: string): Promise<SSEEvent[]> {
  server.get().handle(respondSSE(body, 3));
  const response = await fetch(server.get().url);
  const out: SSEEvent[] = [];
  for await (const event of readSSE(response, undefined, CTX)) out.push(event);
  return out;
}

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads retry-after-ms, then seconds, then an HTTP-date', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
    expect(parseRetryAfter(headers({ 'retry-after': '2.5' }), now)).toBe(2500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30000);
  });

  it('clamps past dates and negative values to 0 and ignores garbage', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '-4' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });
});

describe('context-length recognition', () => {
  it('reads the window from OpenAI, Anthropic, Gemini and llama.cpp messages', () => {
    expect(contextLimitFromMessage("This model's maximum context length is 128,000 tokens.")).toBe(128000);
    expect(contextLimitFromMessage('prompt is too long: 208310 tokens > 200000 maximum')).toBe(200000);
    expect(
      contextLimitFromMessage(
        'The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).',
      ),
    ).toBe(1048576);
    expect(
      contextLimitFromMessage(
        'request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it',
      ),
    ).toBe(4096);
    expect(contextLimitFromMessage('Please reduce the length of the messages.')).toBeUndefined();
  });

  it('knows the generic phrases and not unrelated 400s', () => {
    for (const m of [
      'too many tokens in prompt',
      'context window exceeded',
      'Request Entity Too Large',
      'prompt is too long',
    ]) {
      expect(isContextLengthMessage(m)).toBe(true);
    }
    const unsupported = OWN_FIXTURES.json('openai-chat/error-400-unsupported-parameter.json').error.message;
    expect(isContextLengthMessage(unsupported)).toBe(false);
  });
});

describe('errorFromResponse', () => {
  const none = new Headers();

  it('maps Anthropic and Gemini bodies', () => {
    const anthropic = errorFromResponse(
      { status: 400, headers: none },
      JSON.stringify({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 208310 tokens > 200000 maximum',
        },
      }),
      CTX,
    );
    expect(anthropic.kind).toBe('context_length');
    expect(anthropic.contextLimit).toBe(200000);
    const overloaded = errorFromResponse(
      { status: 500, headers: none },
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      CTX,
    );
    expect(overloaded.kind).toBe('overloaded');
    const gemini = errorFromResponse(
      { status: 429, headers: none },
      JSON.stringify({
        error: {
          code: 429,
          message: 'Resource has been exhausted',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
        },
      }),
      CTX,
    );
    expect(gemini).toMatchObject({
      kind: 'rate_limit',
      retryAfterMs: 17000,
      message: 'Resource has been exhausted',
    });
  });

  it('uses the provider-specific context-length test', () => {
    const error = errorFromResponse(
      { status: 400, headers: none },
      '{"error":{"message":"input exceeds model window"}}',
      {
        ...CTX,
        isContextLength: (m) => m.includes('model window'),
      },
    );
    expect(error.kind).toBe('context_length');
  });

  it('falls back to the status when the body is empty', () => {
    const error = errorFromResponse({ status: 404, headers: none }, '', CTX);
    expect(error).toMatchObject({ kind: 'not_found', message: 'HTTP 404', model: 'p:m' });
  });
});

describe('networkError', () => {
  it('maps resets, refusals, timeouts and aborts', () => {
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('read'), { code: 'ECONNRESET' }),
    });
    expect(networkError(reset, CTX).kind).toBe('connection');
    expect(networkError(new Error('socket hang up'), CTX).kind).toBe('connection');
    expect(networkError(new TypeError('terminated'), CTX).kind).toBe('connection');
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(networkError(timeout, CTX).kind).toBe('timeout');
    expect(networkError(new DOMException('The operation timed out.', 'TimeoutError'), CTX).kind).toBe(
      'timeout',
    );
    const aborted = networkError(new DOMException('This operation was aborted', 'AbortError'), CTX);
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });
});

describe('postJSON', () => {
  it('times out when no response headers arrive within timeoutMs', async () => {
    server.get().handle(stall());
    const clock = fakeClock();
    const pending = rejectionOf(
      postJSON({ url: server.get().url, body: {}, headers: {}, timeoutMs: 5000, clock, ...CTX }),
    );
    while (server.get().requests.length === 0) await new Promise<void>((r) => setImmediate(r));
    clock.advance(4999);
    clock.advance(1);
    const error = await pending;
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('stops the timeout once headers arrive, so a long body is not cut', async () => {
    server.get().handle(respond(200, { ok: true }));
    const clock = fakeClock();
    const response = await postJSON({
      url: server.get().url,
      body: { a: 1 },
      headers: {},
      timeoutMs: 10,
      clock,
      ...CTX,
    });
    expect(clock.pending()).toBe(0);
    clock.advance(1000);
    expect(await response.json()).toEqual({ ok: true });
    expect(server.get().lastRequest().body).toEqual({ a: 1 });
  });

  it('links the abort signal and the timeout on runtimes without AbortSignal.any', async () => {
    const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any');
    Object.defineProperty(AbortSignal, 'any', { value: undefined, configurable: true });
    try {
      server.get().handle(stall());
      const controller = new AbortController();
      const pending = rejectionOf(
        postJSON({
          url: server.get().url,
          body: {},
          headers: {},
          timeoutMs: 5000,
          clock: fakeClock(),
          signal: controller.signal,
          ...CTX,
        }),
      );
      while (server.get().requests.length === 0) await new Promise<void>((r) => setImmediate(r));
      controller.abort();
      expect(await pending).toMatchObject({ kind: 'aborted' });
    } finally {
      if (any) Object.defineProperty(AbortSignal, 'any', any);
    }
  });

  it('rejects a body that cannot be serialised as bad_request without sending it', async () => {
    const error = await rejectionOf(
      postJSON({ url: server.get().url, body: { n: 1n }, headers: {}, ...CTX }),
    );
    expect(error.kind).toBe('bad_request');
    expect(server.get().requests).toHaveLength(0);
  });
});

describe('readSSE', () => {
  it('yields events with names and ids and ignores comments, across tiny chunks', async () => {
    const out = await events(
      ': keep-alive\n\nevent: delta\nid: 7\ndata: {"a":1}\n\r\ndata: two\r\ndata: lines\r\n\r\n',
    );
    expect(out).toEqual([{ event: 'delta', id: '7', data: '{"a":1}' }, { data: 'two\nlines' }]);
  });

  it('delivers a last event the server did not terminate', async () => {
    const out = await events('data: first\n\ndata: [DONE]');
    expect(out.map((e) => e.data)).toEqual(['first', '[DONE]']);
  });

  it('throws aborted when the signal fires mid-stream', async () => {
    server.get().handle(stall('data: one\n\n'));
    const response = await fetch(server.get().url);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of readSSE(response, controller.signal, CTX)) {
          seen.push(event.data);
          controller.abort();
        }
      })(),
    );
    expect(seen).toEqual(['one']);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('hands out no more events of an already received chunk once the signal aborts', async () => {
    server.get().handle(stall('data: one\n\ndata: two\n\ndata: three\n\n'));
    const response = await fetch(server.get().url);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of readSSE(response, controller.signal, CTX)) {
          seen.push(event.data);
          controller.abort();
        }
      })(),
    );
    expect(seen).toEqual(['one']);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });
});
