import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, Executor } from '../../src/index.js';
import { SearchError, searxng, tavily, webSearchTool } from '../../src/search/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Handler = (req: Seen, res: ServerResponse) => void;

/** A loopback engine: each request is answered by the next queued handler. */
let server: Server;
let base: string;
const queue: Handler[] = [];
const seen: Seen[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const handler = queue.shift();
      if (handler) handler(request, res);
      // No handler: the request hangs until the client gives up.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  queue.length = 0;
  seen.length = 0;
});

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };

// SearXNG's documented JSON answer (docs.searxng.org, Search API): results with url, title, content.
const SEARXNG_ANSWER = {
  query: 'tandem agents',
  number_of_results: 2,
  results: [
    {
      url: 'https://example.org/a',
      title: 'A',
      content: 'First hit',
      engine: 'duckduckgo',
      score: 2,
      publishedDate: '2026-01-02T00:00:00',
    },
    { url: 'https://example.org/b', title: '', content: 'Untitled hit', engine: 'bing', score: 1 },
    { title: 'no url: skipped', content: 'x' },
  ],
  answers: [],
  suggestions: [],
  unresponsive_engines: [],
};

/** Fires the earliest timer of `ms` once the client has set it (after real I/O). */
async function fire(clock: FakeClock, ms: number): Promise<void> {
  await vi.waitFor(() => expect(clock.fireNext((t) => t === ms)).toBe(true));
}

describe('searxng', () => {
  it('asks /search with format=json and maps results to hits', async () => {
    queue.push(json(200, SEARXNG_ANSWER));
    const engine = searxng({ baseUrl: base, categories: 'general', language: 'en' });
    const hits = await engine.search('tandem agents', { maxResults: 5 });
    expect(new URL(seen[0]!.url, base).searchParams.toString()).toBe(
      'q=tandem+agents&format=json&categories=general&language=en',
    );
    expect(hits).toEqual([
      { title: 'A', url: 'https://example.org/a', snippet: 'First hit', publishedAt: '2026-01-02T00:00:00' },
      { title: 'https://example.org/b', url: 'https://example.org/b', snippet: 'Untitled hit' },
    ]);
    expect(engine.id).toBe(`searxng:${new URL(base).host}`);
  });

  it('explains a 403 as the JSON format being disabled on the instance', async () => {
    queue.push(json(403, '<html>Forbidden</html>'));
    const error = await searxng({ baseUrl: base })
      .search('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchError);
    expect((error as SearchError).kind).toBe('bad_request');
    expect((error as Error).message).toMatch(
      /\/search\?q=x&format=json answered 403: enable the json format/,
    );
    expect(seen).toHaveLength(1);
  });

  it('names the URL when the answer is not JSON or has no results', async () => {
    queue.push(json(200, 'not json'), json(200, { query: 'x' }));
    const engine = searxng({ baseUrl: base });
    await expect(engine.search('x')).rejects.toThrow(
      /127\.0\.0\.1:\d+\/search\?q=x&format=json answered with text that is not JSON/,
    );
    await expect(engine.search('x')).rejects.toThrow(/answered JSON without a results array/);
  });

  it('retries a 503 after a backoff and a 429 after its Retry-After', async () => {
    const clock = new FakeClock();
    queue.push(json(503, 'busy'), json(429, 'slow down', { 'retry-after': '3' }), json(200, SEARXNG_ANSWER));
    const pending = searxng({ baseUrl: base, clock }).search('x');
    await fire(clock, 500);
    await fire(clock, 3000);
    expect(await pending).toHaveLength(2);
    expect(seen).toHaveLength(3);
  });

  it('times out a request the engine never answers, with a typed error naming the URL', async () => {
    const clock = new FakeClock();
    const pending = searxng({ baseUrl: base, clock, timeoutMs: 5000, maxRetries: 0 })
      .search('hang')
      .catch((e: unknown) => e);
    // Only once the engine holds the request: an abort before it arrives would leave it to reach a later test.
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await fire(clock, 5000);
    const error = await pending;
    expect((error as SearchError).kind).toBe('timeout');
    expect((error as Error).message).toMatch(/search\?q=hang&format=json did not answer within 5000 ms/);
  });

  it('needs an instance: a missing SEARXNG_URL is a ConfigError naming the variable', () => {
    vi.stubEnv('SEARXNG_URL', '');
    expect(() => searxng()).toThrow(ConfigError);
    expect(() => searxng()).toThrow(/SEARXNG_URL/);
    vi.unstubAllEnvs();
  });
});

describe('tavily', () => {
  it('posts the query with a bearer key and maps the documented results', async () => {
    queue.push(
      json(200, {
        query: 'q',
        answer: null,
        results: [
          {
            title: 'T',
            url: 'https://t.example/1',
            content: 'Extracted',
            score: 0.9,
            published_date: 'Mon, 01 Jun 2026',
          },
        ],
        response_time: 0.4,
      }),
    );
    const hits = await tavily({ apiKey: 'tvly-test', baseUrl: base }).search('q', { maxResults: 3 });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/search' });
    expect(seen[0]!.headers.authorization).toBe('Bearer tvly-test');
    expect(JSON.parse(seen[0]!.body)).toEqual({
      query: 'q',
      max_results: 3,
      search_depth: 'basic',
      topic: 'general',
    });
    expect(hits).toEqual([
      { title: 'T', url: 'https://t.example/1', snippet: 'Extracted', publishedAt: 'Mon, 01 Jun 2026' },
    ]);
  });

  it('checks the key before any request and names TAVILY_API_KEY', async () => {
    vi.stubEnv('TAVILY_API_KEY', '');
    await expect(tavily({ baseUrl: base }).search('q')).rejects.toThrow(/TAVILY_API_KEY/);
    expect(seen).toHaveLength(0);
    vi.unstubAllEnvs();
  });

  it('does not retry a refused key', async () => {
    queue.push(json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } }));
    const error = await tavily({ apiKey: 'bad', baseUrl: base })
      .search('q')
      .catch((e: unknown) => e);
    expect((error as SearchError).kind).toBe('auth');
    expect((error as SearchError).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe('web_search tool', () => {
  it('gives the model numbered hits from the engine', async () => {
    queue.push(json(200, SEARXNG_ANSWER));
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'web_search', args: { query: 'tandem agents', max_results: 2 } }] },
      { text: 'Found two.' },
    ]);
    const executor = new Executor({ model, tools: [webSearchTool(searxng({ baseUrl: base }))] });
    const result = await executor.run('search').result;
    expect(result.output).toBe('Found two.');
    const tool = result.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain(
      '1. A (2026-01-02T00:00:00)\\n   https://example.org/a\\n   First hit\\n2. https://example.org/b\\n   https://example.org/b\\n   Untitled hit',
    );
  });
});
