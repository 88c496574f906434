/**
 * `refreshApiKey`: a request refused with 401 is sent again, once, with the
 * key the hook returns, which later requests keep; concurrent refusals share
 * one refresh; a second 401 is reported as it is.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';
import { failure } from './helpers.js';

const server = useFixtureServer();
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

const providers = [
  {
    name: 'OpenAI',
    header: 'authorization',
    sent: (key: string) => `Bearer ${key}`,
    refused: 'openai-chat/error-401-invalid-api-key.json',
    ok: 'openai-chat/nonstream-text.json',
    make: (refreshApiKey: () => Promise<string>) =>
      createOpenAI({ apiKey: 'old', baseURL: `${server.url}/v1`, refreshApiKey })('gpt-4o-mini'),
  },
  {
    name: 'Anthropic',
    header: 'x-api-key',
    sent: (key: string) => key,
    refused: 'anthropic/error-401-authentication.json',
    ok: 'anthropic/nonstream-max-tokens.json',
    make: (refreshApiKey: () => Promise<string>) =>
      createAnthropic({ apiKey: 'old', baseURL: `${server.url}/v1`, refreshApiKey })('claude-sonnet-4-5'),
  },
  {
    name: 'Gemini',
    header: 'x-goog-api-key',
    sent: (key: string) => key,
    refused: 'openai-chat/error-401-invalid-api-key.json',
    ok: 'gemini/generate-content-max-tokens.json',
    make: (refreshApiKey: () => Promise<string>) =>
      createGemini({ apiKey: 'old', baseURL: `${server.url}/v1beta`, refreshApiKey })('gemini-2.5-flash'),
  },
];

describe.each(providers)('$name refreshApiKey', (p) => {
  it('sends a refused request again with the fresh key, which later requests keep', async () => {
    let calls = 0;
    const model = p.make(async () => `fresh-${++calls}`);
    server.handle(serveFixture(p.refused, { status: 401 }), serveFixture(p.ok), serveFixture(p.ok));
    await model.generate(ask);
    await model.generate(ask);
    expect(calls).toBe(1);
    expect(server.requests.map((r) => r.headers[p.header])).toEqual([
      p.sent('old'),
      p.sent('fresh-1'),
      p.sent('fresh-1'),
    ]);
  });

  it('refreshes once per request: a second 401 is the error', async () => {
    let calls = 0;
    const model = p.make(async () => `fresh-${++calls}`);
    server.handle(serveFixture(p.refused, { status: 401 }), serveFixture(p.refused, { status: 401 }));
    const error = await failure(model.generate(ask));
    expect(error.kind).toBe('auth');
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('shares one refresh between requests refused together', async () => {
    let calls = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = p.make(async () => {
      calls++;
      await gate;
      return 'fresh';
    });
    server.handle(
      serveFixture(p.refused, { status: 401 }),
      serveFixture(p.refused, { status: 401 }),
      serveFixture(p.ok),
      serveFixture(p.ok),
    );
    const both = Promise.all([model.generate(ask), model.generate(ask)]);
    await expect.poll(() => calls).toBe(1);
    release();
    await both;
    expect(calls).toBe(1);
  });
});

it('reports a hook that returns no key as a ConfigError naming the factory', async () => {
  const model = createOpenAI({ apiKey: 'old', baseURL: `${server.url}/v1`, refreshApiKey: async () => '' })(
    'm',
  );
  server.handle(serveFixture('openai-chat/error-401-invalid-api-key.json', { status: 401 }));
  const error = await model.generate(ask).catch((e: unknown) => e);
  expect(error).not.toBeInstanceOf(ModelError);
  expect((error as Error).message).toBe('createOpenAI: refreshApiKey returned no key');
});
