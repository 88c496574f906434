import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { collectStream } from '../../src/model/stream.js';
import type { ModelRequest, ModelStreamPart } from '../../src/model/types.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { OWN_FIXTURES } from './fixture-files.js';
import {
  resetAfter,
  resetBeforeResponse,
  respond,
  respondSSE,
  serveFixture,
  stall,
  useFixtureServer,
} from './fixture-server.js';
import { drain, rejectionOf } from './helpers.js';

const server = useFixtureServer();
const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

function model() {
  return createOpenAI({ baseURL: `${server.get().url}/v1`, apiKey: 'sk-test' })('test-model');
}

describe('OpenAI Chat HTTP errors', () => {
  // [fixture, kind, retryable, wait asked for]
  const fixtures: Array<[string, string, boolean, number?]> = [
    ['openai-chat/error-400-unsupported-parameter.json', 'bad_request', false],
    ['openai-chat/error-401-invalid-api-key.json', 'auth', false],
    ['openai-chat/error-403-unsupported-region.json', 'auth', false],
    ['openai-chat/error-404-model-not-found.json', 'not_found', false],
    ['openai-chat/azure-error-400-content-filter.json', 'content_filter', false],
    ['openai-chat/error-429-rate-limit.json', 'rate_limit', true, 2000],
    ['openai-chat/error-429-insufficient-quota.json', 'rate_limit', false],
    ['openai-chat/error-500-server-error.json', 'server', true],
    ['openai-chat/error-503-overloaded.json', 'overloaded', true, 1000],
    ['openai-compatible/openrouter-error-429.json', 'rate_limit', true, 7000],
  ];

  for (const [file, kind, retryable, retryAfterMs] of fixtures) {
    it(`maps ${file} to ${kind}${retryable ? ' (retryable)' : ''} with the provider's message`, async () => {
      server.get().handle(serveFixture(file));
      const error = await rejectionOf(model().generate(HELLO));
      const entry = OWN_FIXTURES.manifest().get(file);
      const body = OWN_FIXTURES.json(file);
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(entry?.httpStatus);
      expect(error.retryable).toBe(retryable);
      expect(error.retryAfterMs).toBe(retryAfterMs);
      expect(error.message.startsWith(body.error.message)).toBe(true);
      expect(error.model).toBe('openai:test-model');
    });
  }

  it("appends OpenRouter's upstream words to its message", async () => {
    server.get().handle(serveFixture('openai-compatible/openrouter-error-429.json'));
    const error = await rejectionOf(drain(model().stream(HELLO)));
    expect(error.message).toBe(
      'Provider returned error: meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry shortly.',
    );
  });

  // [fixture, window it names]
  const contextErrors: Array<[string, number]> = [
    ['openai-chat/error-400-context-length.json', 128000],
    ['openai-compatible/vllm-error-400-context-length.json', 32768],
    ['openai-compatible/llamacpp-error-400-context-size.json', 4096],
  ];

  for (const [file, window] of contextErrors) {
    it(`maps the context-length error of ${file} to context_length with the window it names`, async () => {
      server.get().handle(serveFixture(file));
      const error = await rejectionOf(drain(model().stream(HELLO)));
      expect(error.kind).toBe('context_length');
      expect(error.contextLimit).toBe(window);
      expect(error.retryable).toBe(false);
    });
  }

  const cases: Array<[string, number, unknown, string, boolean]> = [
    ['413 entity too large', 413, 'Request Entity Too Large', 'payload_too_large', false],
    ['408 request timeout', 408, { error: { message: 'Request timed out' } }, 'timeout', true],
    ['422 validation', 422, { detail: 'messages: field required' }, 'bad_request', false],
    [
      '529 overloaded',
      529,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      'overloaded',
      true,
    ],
  ];

  for (const [name, status, body, kind, retryable] of cases) {
    it(`maps ${name} to ${kind}${retryable ? ' (retryable)' : ''}`, async () => {
      server.get().handle(respond(status, body));
      const error = await rejectionOf(model().generate(HELLO));
      expect(error).toBeInstanceOf(ModelError);
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(retryable);
    });
  }

  it('keeps an HTML error page short in the message', async () => {
    server.get().handle(respond(502, `<html>${'x'.repeat(5000)}</html>`));
    const error = await rejectionOf(model().generate(HELLO));
    expect(error.kind).toBe('server');
    expect(error.message.length).toBeLessThanOrEqual(501);
  });

  it('prefers retry-after-ms to retry-after, on streams too', async () => {
    server
      .get()
      .handle(
        serveFixture('openai-chat/error-429-rate-limit.json', { headers: { 'retry-after-ms': '350' } }),
      );
    const error = await rejectionOf(drain(model().stream(HELLO)));
    expect(error.kind).toBe('rate_limit');
    expect(error.retryAfterMs).toBe(350);
  });

  it('throws an error object inside a 200 reply', async () => {
    server.get().handle(respond(200, { error: { message: 'Upstream failed', code: 502 } }));
    const error = await rejectionOf(model().generate(HELLO));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(502);
    expect(error.message).toBe('Upstream failed');
  });

  it('rejects a 200 reply that is not JSON as invalid_response', async () => {
    server.get().handle(respond(200, 'not json'));
    const error = await rejectionOf(model().generate(HELLO));
    expect(error.kind).toBe('invalid_response');
    expect(error.retryable).toBe(true);
  });
});

describe('OpenAI Chat network failures', () => {
  it('maps a socket reset before the response to connection', async () => {
    server.get().handle(resetBeforeResponse());
    const generated = await rejectionOf(model().generate(HELLO));
    expect(generated.kind).toBe('connection');
    expect(generated.retryable).toBe(true);
    const streamed = await rejectionOf(drain(model().stream(HELLO)));
    expect(streamed.kind).toBe('connection');
  });

  it('maps a reset mid-stream to connection after delivering the parts before it', async () => {
    const body = OWN_FIXTURES.body('openai-chat/stream-text-usage.sse');
    const cut = body.indexOf('data:', body.indexOf('" capital"'));
    server.get().handle(resetAfter(body, cut));
    const parts: ModelStreamPart[] = [];
    const error = await rejectionOf(drain(model().stream(HELLO), parts));
    expect(error.kind).toBe('connection');
    expect(parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')).toBe('The capital');
  });

  it('throws connection when a stream ends cleanly with neither a finish reason nor [DONE]', async () => {
    const body = OWN_FIXTURES.body('openai-chat/stream-text-usage.sse');
    server.get().handle(respondSSE(body.slice(0, body.indexOf('data:', body.indexOf('" of"')))));
    const error = await rejectionOf(drain(model().stream(HELLO)));
    expect(error.kind).toBe('connection');
    expect(error.message).toMatch(/ended before the reply was complete/);
  });

  it('accepts a stream without [DONE] once a finish reason arrived', async () => {
    server.get().handle(serveFixture('openai-chat/stream-text-multibyte.chunks.jsonl', { framing: 'data' }));
    const response = await collectStream(model().stream(HELLO));
    expect(response.finishReason).toBe('stop');
    expect(response.usage.outputTokens).toBe(45);
  });

  it('rejects a malformed chunk as invalid_response', async () => {
    server
      .get()
      .handle(respondSSE('data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":[{"delta\n\n'));
    const error = await rejectionOf(drain(model().stream(HELLO)));
    expect(error.kind).toBe('invalid_response');
  });

  it('does not send a request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(model().generate(HELLO, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(server.get().requests).toHaveLength(0);
  });

  it('aborts while waiting for response headers', async () => {
    server.get().handle(stall());
    const controller = new AbortController();
    const pending = rejectionOf(model().generate(HELLO, { signal: controller.signal }));
    await waitForRequest();
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
  });

  it('aborts a stream mid-way after its first part', async () => {
    server.get().handle(stall('data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'));
    const controller = new AbortController();
    const parts: ModelStreamPart[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const part of model().stream(HELLO, { signal: controller.signal })) {
          parts.push(part);
          controller.abort();
        }
      })(),
    );
    expect(parts).toEqual([{ type: 'text-delta', delta: 'Hi' }]);
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
  });
});

// The server records a request once its body has arrived; poll the event loop until then.
async function waitForRequest(): Promise<void> {
  while (server.get().requests.length === 0) await new Promise<void>((r) => setImmediate(r));
}

describe('OpenAI Chat stream quirks', () => {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('keys tool calls by id when the server omits index, and skips empty keep-alive frames', async () => {
    server
      .get()
      .handle(
        respondSSE(
          chunk({ tool_calls: [{ id: 'a', function: { name: 'one', arguments: '{"x":' } }] }) +
            'data: \n\n' +
            chunk({ tool_calls: [{ function: { arguments: '1}' } }] }) +
            chunk({ tool_calls: [{ id: 'b', function: { name: 'two', arguments: '{}' } }] }) +
            chunk({}, 'tool_calls'),
        ),
      );
    const response = await collectStream(model().stream(HELLO));
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'a', name: 'one', arguments: '{"x":1}' },
      { type: 'tool_call', id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('keeps a refusal as text', async () => {
    server
      .get()
      .handle(
        respondSSE(`${chunk({ refusal: "I can't help with that." })}${chunk({}, 'stop')}data: [DONE]\n\n`),
      );
    const response = await collectStream(model().stream(HELLO));
    expect(response.message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
  });

  it('serialises tool-call arguments a server sent as an object', async () => {
    server.get().handle(
      respond(200, {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [{ id: 'c', function: { name: 'f', arguments: { q: 1 } } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    );
    const response = await model().generate(HELLO);
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'c', name: 'f', arguments: '{"q":1}' },
    ]);
    expect(response.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('rejects a reply without choices as invalid_response', async () => {
    server.get().handle(respond(200, { id: 'x', choices: [] }));
    const error = await rejectionOf(model().generate(HELLO));
    expect(error.kind).toBe('invalid_response');
  });
});
