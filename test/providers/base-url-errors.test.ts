/**
 * A wrong `baseURL` answers with whatever serves that URL — Ollama's
 * "404 page not found", a proxy's HTML page, FastAPI's "Not Found" — not the
 * provider's error JSON. The error names the URL called, says what to check
 * and shows the page as one short line.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import type { ModelRequest } from '../../src/model/types.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { respond, useFixtureServer } from './fixture-server.js';
import { rejectionOf } from './helpers.js';

const server = useFixtureServer();
const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

const HTML_PAGE = `<!DOCTYPE html>
<html>
  <head><title>404 Not Found</title><style>body { color: red; }</style></head>
  <body>
    <h1>Not   Found</h1>
    <p>The requested URL was not found on this server &amp; nowhere else.</p>
    <script>console.log("tracking")</script>
    ${'<p>filler</p>\n'.repeat(200)}
  </body>
</html>`;

describe('a baseURL without its API path', () => {
  it("names the URL called and asks about /v1 for Ollama's plain-text 404", async () => {
    server.get().handle(respond(404, '404 page not found'));
    const base = server.get().url;
    const error = await rejectionOf(createOpenAI({ baseURL: base })('qwen3').generate(HELLO));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'not_found', status: 404, body: '404 page not found' });
    expect(error.message).toBe(
      `HTTP 404 from ${base}/chat/completions: 404 page not found — does the baseURL need a /v1 suffix?`,
    );
  });

  it("cuts an HTML page to one line of its text, and asks about /v1 on a stream's request too", async () => {
    server.get().handle(respond(404, HTML_PAGE, { 'content-type': 'text/html' }));
    const base = server.get().url;
    const stream = createAnthropic({ baseURL: base })('claude-x').stream!(HELLO);
    const error = await rejectionOf(stream[Symbol.asyncIterator]().next());
    expect(error.kind).toBe('not_found');
    expect(error.message).not.toMatch(/[\n<>]|tracking|color: red/);
    expect(error.message).toMatch(
      new RegExp(
        `^HTTP 404 from ${base}/messages: 404 Not Found Not Found The requested URL was not found on this server & nowhere else\\. filler`,
      ),
    );
    expect(error.message).toMatch(/… — does the baseURL need a \/v1 suffix\?$/);
    const line = error.message.slice(`HTTP 404 from ${base}/messages: `.length, error.message.indexOf(' — '));
    expect(line.length).toBeLessThanOrEqual(200);
  });

  it("treats vLLM's JSON {detail: 'Not Found'} as a wrong route, naming the URL", async () => {
    server.get().handle(respond(404, { detail: 'Not Found' }));
    const base = `${server.get().url}/v1beta`;
    const error = await rejectionOf(createGemini({ baseURL: base })('gemini-x').generate(HELLO));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(
      `HTTP 404 from ${base}/models/gemini-x:generateContent: Not Found — check the baseURL and the model name`,
    );
  });

  it('keeps the API’s own words when it answers with its error JSON', async () => {
    const said = 'The model `qwen9` does not exist or you do not have access to it.';
    server.get().handle(respond(404, { error: { message: said, code: 'model_not_found' } }));
    const error = await rejectionOf(
      createOpenAI({ baseURL: `${server.get().url}/v1` })('qwen9').generate(HELLO),
    );
    expect(error).toMatchObject({ kind: 'not_found', message: said });
  });

  it('cuts the HTML page of another status to one line, without guessing at a cause', async () => {
    server
      .get()
      .handle(respond(502, `<html><body><h1>502 Bad Gateway</h1>${'x'.repeat(5000)}</body></html>`));
    const error = await rejectionOf(createOpenAI({ baseURL: `${server.get().url}/v1` })('m').generate(HELLO));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/^502 Bad Gateway x+…$/);
    expect(error.message).toHaveLength(200);
  });

  it('names the URL of a 405, where a server has the path for another method', async () => {
    server.get().handle(respond(405, 'Method Not Allowed'));
    const base = server.get().url;
    const error = await rejectionOf(createOpenAI({ baseURL: base })('m').generate(HELLO));
    expect(error.message).toBe(
      `HTTP 405 from ${base}/chat/completions: Method Not Allowed — does the baseURL need a /v1 suffix?`,
    );
  });

  it('never shows the query of the URL, where a key may travel', async () => {
    server.get().handle(respond(404, 'nope'));
    const base = server.get().url;
    const stream = createGemini({ baseURL: base, apiKey: 'k' })('g').stream!(HELLO);
    const error = await rejectionOf(stream[Symbol.asyncIterator]().next());
    expect(server.get().lastRequest().url).toContain('?alt=sse');
    expect(error.message).toBe(
      `HTTP 404 from ${base}/models/g:streamGenerateContent: nope — does the baseURL need a /v1 suffix?`,
    );
  });
});
