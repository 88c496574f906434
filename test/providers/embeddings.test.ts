/**
 * The embedding adapters against a loopback server speaking each provider's
 * documented wire format: OpenAI `POST /embeddings`, Gemini
 * `batchEmbedContents`, and the AI SDK's own providers (spec v2, v3, v4)
 * over the OpenAI-compatible format. Keys are checked before any request;
 * failures are `ModelError`s the memory layer retries as chat calls are.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, Executor, InMemoryMemoryStore, ModelError, type TandemEvent } from '../../src/index.js';
import { fromAISDKEmbedding } from '../../src/providers/ai-sdk/index.js';
import { createGeminiEmbedding } from '../../src/providers/gemini/index.js';
import { createOpenAIEmbedding } from '../../src/providers/openai/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { MAJORS } from './ai-sdk/real-providers.js';
import { respond, useFixtureServer } from './fixture-server.js';
import { failure, rejectionOf } from './helpers.js';

const server = useFixtureServer();
const KEYS = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((name) => [name, process.env[name]]));
  for (const name of KEYS) delete process.env[name];
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A fetch that sends `host` to the loopback server, so a request that should not happen is counted. */
const toLoopback =
  (host: string): typeof fetch =>
  (url, init) =>
    fetch(String(url).replace(`https://${host}`, server.get().url), init);

/** An OpenAI embeddings reply; `shuffled`: out of order, so only the `index` fields place the vectors. */
const openAIReply = (vectors: number[][], tokens = 7, shuffled = true) => ({
  object: 'list',
  data: vectors
    .map((embedding, index) => ({ object: 'embedding', index, embedding }))
    [shuffled ? 'reverse' : 'slice'](),
  model: 'text-embedding-3-small',
  usage: { prompt_tokens: tokens, total_tokens: tokens },
});

describe('createOpenAIEmbedding', () => {
  it('posts the texts to /embeddings and reads the vectors back in order', async () => {
    server.handle(
      respond(
        200,
        openAIReply([
          [1, 0, 0],
          [0, 1, 0],
        ]),
      ),
    );
    const embedder = createOpenAIEmbedding('text-embedding-3-small', {
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test',
      dimensions: 3,
    });
    expect(embedder.id).toBe('openai:text-embedding-3-small');
    const result = await embedder.embed(['first', 'second']);
    expect(result).toEqual({
      vectors: [
        [1, 0, 0],
        [0, 1, 0],
      ],
      tokens: 7,
    });
    const request = server.lastRequest();
    expect(request.url).toBe('/v1/embeddings');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['first', 'second'],
      encoding_format: 'float',
      dimensions: 3,
    });
  });

  it("fails before any request on OpenAI's own API without a key, naming OPENAI_API_KEY", async () => {
    const embedder = createOpenAIEmbedding('text-embedding-3-small', { fetch: toLoopback('api.openai.com') });
    const error = await rejectionOf(embedder.embed(['x']));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/OPENAI_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('needs the vector length of a model it does not know', () => {
    expect(() => createOpenAIEmbedding('nomic-embed-text', { baseURL: server.url })).toThrow(/dimensions/);
    expect(
      createOpenAIEmbedding('nomic-embed-text', { baseURL: server.url, dimensions: 768 }).dimensions,
    ).toBe(768);
  });

  it('maps a rate limit to a retryable ModelError, and a reply short of vectors to invalid_response', async () => {
    const embedder = createOpenAIEmbedding('text-embedding-3-small', { baseURL: server.url, apiKey: 'k' });
    server.handle(
      respond(429, { error: { message: 'Rate limit reached', type: 'requests' } }, { 'retry-after': '2' }),
    );
    const limited = await failure(embedder.embed(['x']));
    expect([limited.kind, limited.retryable, limited.retryAfterMs]).toEqual(['rate_limit', true, 2000]);
    server.handle(respond(200, openAIReply([[1, 0]])));
    expect((await failure(embedder.embed(['a', 'b']))).kind).toBe('invalid_response');
  });

  it('is retried by recall after a rate limit, and remembers the run through the same endpoint', async () => {
    const vector = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));
    server.handle(
      respond(429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '0' }),
      respond(200, openAIReply([vector])),
      respond(200, openAIReply([vector, vector])),
    );
    const embedder = createOpenAIEmbedding('text-embedding-3-small', { baseURL: server.url, apiKey: 'k' });
    const store = new InMemoryMemoryStore();
    const executor = new Executor({
      model: new ScriptedModel([{ text: 'Hi.' }]),
      memory: { store, working: false, recall: { embedder } },
    });
    const run = executor.run('hello', { resourceId: 'u1', threadId: 't1' });
    const events: TandemEvent[] = [];
    run.on('memory', (e) => events.push(e));
    expect((await run.result).status).toBe('success');
    expect(server.requests.map((r) => r.body.input)).toEqual([['hello'], ['hello'], ['hello', 'Hi.']]);
    expect(events.map((e) => [(e as TandemEvent<'memory'>).op, (e as TandemEvent<'memory'>).count])).toEqual([
      ['recall', 0],
      ['remember', 2],
    ]);
  });
});

describe('createGeminiEmbedding', () => {
  it('posts one request per text to batchEmbedContents and reads the vectors', async () => {
    server.handle(respond(200, { embeddings: [{ values: [0.5, 0.5] }, { values: [1, 0] }] }));
    const embedder = createGeminiEmbedding('gemini-embedding-001', {
      baseURL: `${server.url}/v1beta`,
      apiKey: 'g-key',
      dimensions: 2,
      taskType: 'SEMANTIC_SIMILARITY',
    });
    expect(embedder.id).toBe('gemini:gemini-embedding-001');
    expect(await embedder.embed(['a', 'b'])).toEqual({
      vectors: [
        [0.5, 0.5],
        [1, 0],
      ],
    });
    const request = server.lastRequest();
    expect(request.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(request.headers['x-goog-api-key']).toBe('g-key');
    expect(request.body.requests[1]).toEqual({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: 'b' }] },
      outputDimensionality: 2,
      taskType: 'SEMANTIC_SIMILARITY',
    });
  });

  it("fails before any request on Google's API without a key, naming GEMINI_API_KEY", async () => {
    const host = 'generativelanguage.googleapis.com';
    const embedder = createGeminiEmbedding('text-embedding-004', { fetch: toLoopback(host) });
    const error = await rejectionOf(embedder.embed(['x']));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/GEMINI_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('maps an invalid key and a short reply to ModelErrors', async () => {
    const embedder = createGeminiEmbedding('text-embedding-004', { baseURL: server.url, apiKey: 'bad' });
    server.handle(
      respond(400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } }),
    );
    const refused = await failure(embedder.embed(['x']));
    expect(refused.retryable).toBe(false);
    server.handle(respond(200, { embeddings: [{ values: [1] }] }));
    expect((await failure(embedder.embed(['a', 'b']))).kind).toBe('invalid_response');
  });
});

describe.each(MAJORS)('fromAISDKEmbedding over @ai-sdk/openai-compatible (spec $spec)', (major) => {
  const model = () => {
    const provider = major.create({ name: 'compat', baseURL: server.url, apiKey: 'test-key' }) as any;
    return major.spec === 'v2'
      ? provider.textEmbeddingModel('emb-test')
      : provider.embeddingModel('emb-test');
  };

  it('embeds through the provider and reads the vectors back', async () => {
    server.handle(
      respond(
        200,
        openAIReply(
          [
            [1, 2],
            [3, 4],
          ],
          5,
          false,
        ),
      ),
    );
    const embedder = fromAISDKEmbedding(model(), { dimensions: 2 });
    expect(embedder.id).toBe('compat:emb-test');
    expect(await embedder.embed(['a', 'b'])).toEqual({
      vectors: [
        [1, 2],
        [3, 4],
      ],
      tokens: 5,
    });
    expect(server.lastRequest().url).toBe('/embeddings');
    expect(server.lastRequest().body).toMatchObject({ model: 'emb-test', input: ['a', 'b'] });
  });

  it("maps the provider's failure to a ModelError", async () => {
    server.handle(
      respond(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
    );
    const error = await rejectionOf(fromAISDKEmbedding(model(), { dimensions: 2 }).embed(['a']));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('auth');
  });
});

describe('fromAISDKEmbedding', () => {
  it('refuses a model id string and a missing vector length', () => {
    expect(() => fromAISDKEmbedding('openai/text-embedding-3-small' as never, { dimensions: 3 })).toThrow(
      ConfigError,
    );
    const fake = {
      specificationVersion: 'v3',
      provider: 'x',
      modelId: 'y',
      maxEmbeddingsPerCall: 2,
      doEmbed() {},
    };
    expect(() => fromAISDKEmbedding(fake as never, {} as never)).toThrow(/dimensions/);
  });
});
