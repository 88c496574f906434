import { APICallError, JSONParseError, LoadAPIKeyError, RetryError } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import { fromAISDK } from '../../../src/providers/ai-sdk/index.js';
import type { AISDKLanguageModel } from '../../../src/providers/ai-sdk/types.js';
import { failure } from '../helpers.js';

type LanguageModelV3 = Extract<AISDKLanguageModel, { specificationVersion: 'v3' }>;
type StreamPartV3 =
  Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const ask: ModelRequest = { messages: [{ role: 'user', content: 'Hi' }] };

function failing(error: unknown) {
  return fromAISDK(
    new MockLanguageModelV3({
      provider: 'openai.responses',
      modelId: 'gpt-5',
      doGenerate: async () => {
        throw error;
      },
    }),
  );
}

function apiError(
  statusCode: number | undefined,
  responseBody?: string,
  headers: Record<string, string> = {},
) {
  return new APICallError({
    message: responseBody ? (JSON.parse(responseBody).error?.message ?? 'failed') : 'Cannot connect to API',
    url: 'https://api.example.com/v1/responses',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody,
    cause: statusCode === undefined ? new TypeError('fetch failed') : undefined,
  });
}

describe('fromAISDK error mapping', () => {
  it('maps a 429 APICallError to rate_limit with the retry-after wait', async () => {
    const body = JSON.stringify({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } });
    const error = await failure(failing(apiError(429, body, { 'retry-after': '3' })).generate(ask));
    expect(error.kind).toBe('rate_limit');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('Rate limit reached');
    expect(error.model).toBe('aisdk:openai.responses:gpt-5');
  });

  it('marks insufficient_quota as a rate_limit that no retry fixes', async () => {
    const body = JSON.stringify({
      error: { message: 'You exceeded your current quota', code: 'insufficient_quota' },
    });
    const error = await failure(failing(apiError(429, body)).generate(ask));
    expect(error.kind).toBe('rate_limit');
    expect(error.retryable).toBe(false);
  });

  it('recognises a context-length 400 and reads the window it names', async () => {
    const body = JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        code: 'context_length_exceeded',
      },
    });
    const error = await failure(failing(apiError(400, body)).generate(ask));
    expect(error.kind).toBe('context_length');
    expect(error.contextLimit).toBe(128000);
    expect(error.retryable).toBe(false);
  });

  it('maps 401, 404, 500 and 529 by status', async () => {
    const kinds: Array<[number, string, boolean]> = [
      [401, 'auth', false],
      [404, 'not_found', false],
      [500, 'server', true],
      [529, 'overloaded', true],
    ];
    for (const [status, kind, retryable] of kinds) {
      const error = await failure(
        failing(apiError(status, JSON.stringify({ error: { message: 'x' } }))).generate(ask),
      );
      expect([error.kind, error.retryable, error.status]).toEqual([kind, retryable, status]);
    }
  });

  it('maps an APICallError without a status (no answer at all) to a retryable connection error', async () => {
    const error = await failure(failing(apiError(undefined)).generate(ask));
    expect(error.kind).toBe('connection');
    expect(error.retryable).toBe(true);
  });

  it('maps a success status whose body failed to read by the cause: a reset socket, a parse error', async () => {
    const unreadable = (cause: unknown) =>
      new APICallError({
        message: 'Failed to process successful response',
        url: 'https://api.example.com/v1/chat/completions',
        requestBodyValues: {},
        statusCode: 200,
        cause,
      });
    const reset = await failure(failing(unreadable(new TypeError('terminated'))).generate(ask));
    expect([reset.kind, reset.retryable]).toEqual(['connection', true]);
    const parse = new JSONParseError({
      text: '{"id":',
      cause: new SyntaxError('Unexpected end of JSON input'),
    });
    const garbled = await failure(failing(unreadable(parse)).generate(ask));
    expect(garbled.kind).toBe('invalid_response');
  });

  it('unwraps a RetryError to its last error', async () => {
    const last = apiError(503, JSON.stringify({ error: { message: 'busy' } }));
    const retry = new RetryError({ message: 'gave up', reason: 'maxRetriesExceeded', errors: [last] });
    const error = await failure(failing(retry).generate(ask));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
  });

  it('maps named AI SDK errors and unknown throws', async () => {
    const auth = await failure(
      failing(new LoadAPIKeyError({ message: 'OPENAI_API_KEY is missing' })).generate(ask),
    );
    expect(auth.kind).toBe('auth');
    const unknown = await failure(failing(new Error('boom')).generate(ask));
    expect(unknown.kind).toBe('server');
    expect(unknown.retryable).toBe(false);
    expect(unknown.message).toContain('boom');
  });

  it('throws the error of an error stream part as a ModelError', async () => {
    const body = JSON.stringify({ error: { message: 'Overloaded', type: 'overloaded_error' } });
    const chunks: StreamPartV3[] = [
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'error', error: apiError(529, body) },
    ];
    const model = fromAISDK(
      new MockLanguageModelV3({ doStream: { stream: convertArrayToReadableStream(chunks) } }),
    );
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const part of model.stream!(ask)) if (part.type === 'text-delta') seen.push(part.delta);
      })(),
    );
    expect(seen).toEqual(['Hel']);
    expect(error.kind).toBe('overloaded');
  });
});

describe('fromAISDK abort', () => {
  it('fails with aborted without calling the model when the signal is already aborted', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: async () => ({}) as never });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(fromAISDK(mock).generate(ask, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('reports the model rejecting on abort as aborted, not as a failure', async () => {
    const controller = new AbortController();
    const mock = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_resolve, reject) => {
          options.abortSignal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
          controller.abort();
        }),
    });
    const error = await failure(fromAISDK(mock).generate(ask, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
  });

  it('stops a stream whose model ignores the signal, and cancels it', async () => {
    let cancelled = false;
    const stream = new ReadableStream<StreamPartV3>({
      start(controller) {
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'partial' });
      },
      cancel() {
        cancelled = true;
      },
    });
    const model = fromAISDK(new MockLanguageModelV3({ doStream: { stream } }));
    const controller = new AbortController();
    const error = await failure(
      (async () => {
        for await (const part of model.stream!(ask, { signal: controller.signal })) {
          if (part.type === 'text-delta') controller.abort();
        }
      })(),
    );
    expect(error.kind).toBe('aborted');
    expect(cancelled).toBe(true);
  });
});
