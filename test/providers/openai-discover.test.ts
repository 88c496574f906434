/**
 * `discover(model)` learns the context window from the server: vLLM's
 * `/models` entry, Ollama's `/api/show`, or nothing (left unset, so the
 * context manager reports it as assumed).
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { respond, useFixtureServer } from './fixture-server.js';

const server = useFixtureServer();

describe('discovering the context window', () => {
  it("reads vLLM's max_model_len from the /models entry of the model", async () => {
    server.handle(
      respond(200, {
        object: 'list',
        data: [
          { id: 'other', object: 'model', max_model_len: 4096 },
          { id: 'Qwen/Qwen3-8B', object: 'model', owned_by: 'vllm', max_model_len: 32768 },
        ],
      }),
    );
    const model = await createOpenAI({ baseURL: `${server.url}/v1` }).discover('Qwen/Qwen3-8B');
    expect(model.info.contextWindow).toBe(32768);
    expect(server.lastRequest()).toMatchObject({ method: 'GET', url: '/v1/models' });
  });

  it("falls back to Ollama's model info: num_ctx first, else the architecture's context_length", async () => {
    const ollama = { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', owned_by: 'library' }] };
    server.handle(
      respond(200, ollama),
      respond(200, {
        parameters: 'temperature 0.6\nnum_ctx 8192',
        model_info: { 'qwen3.context_length': 40960 },
      }),
      respond(200, ollama),
      respond(200, { parameters: 'temperature 0.6', model_info: { 'qwen3.context_length': 40960 } }),
    );
    const openai = createOpenAI({ baseURL: `${server.url}/v1` });
    expect((await openai.discover('qwen3:8b')).info.contextWindow).toBe(8192);
    expect(server.lastRequest()).toMatchObject({
      method: 'POST',
      url: '/api/show',
      body: { model: 'qwen3:8b' },
    });
    expect((await openai.discover('qwen3:8b')).info.contextWindow).toBe(40960);
  });

  it('leaves the window unset when the server reports none, and keeps a window given in settings', async () => {
    server.handle(respond(404, 'not found'), respond(404, 'not found'));
    const openai = createOpenAI({ baseURL: `${server.url}/v1` });
    expect((await openai.discover('m')).info.contextWindow).toBeUndefined();
    expect((await openai.discover('m', { info: { contextWindow: 1234 } })).info.contextWindow).toBe(1234);
  });

  it('names the URL when the server cannot be asked', async () => {
    server.handle(respond(500, { error: { message: 'boom' } }));
    const error = await createOpenAI({ baseURL: `${server.url}/v1` })
      .discover('m')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('server');
    expect((error as Error).message).toMatch(
      /^openai:m: http:\/\/127\.0\.0\.1:\d+\/v1\/models answered 500: boom$/,
    );
  });
});
