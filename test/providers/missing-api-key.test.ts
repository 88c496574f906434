/**
 * A provider's own API called without a key fails with a ConfigError naming
 * the environment variable, at the first call and before any request; making
 * the provider never throws, and a baseURL to another server needs no key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, createResilientInvoker, Executor } from '../../src/index.js';
import type { ChatModel, ModelRequest } from '../../src/model/types.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { testRuntime } from '../../src/testing/index.js';
import { respond, useFixtureServer } from './fixture-server.js';
import { rejectionOf } from './helpers.js';

const server = useFixtureServer();
const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];

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

/** A fetch that sends the provider's own host to the loopback server, so any request would be counted. */
function toLoopback(host: string): typeof fetch {
  return (url, init) => fetch(String(url).replace(`https://${host}`, server.get().url), init);
}

const providers: { name: string; env: RegExp; make: () => ChatModel; keyed: (key: string) => ChatModel }[] = [
  {
    name: 'createOpenAI',
    env: /OPENAI_API_KEY/,
    make: () => createOpenAI({ fetch: toLoopback('api.openai.com') })('gpt-4o-mini'),
    keyed: (key) => createOpenAI({ fetch: toLoopback('api.openai.com'), apiKey: key })('gpt-4o-mini'),
  },
  {
    name: 'createAnthropic',
    env: /ANTHROPIC_API_KEY/,
    make: () => createAnthropic({ fetch: toLoopback('api.anthropic.com') })('claude-sonnet-4-5'),
    keyed: (key) =>
      createAnthropic({ fetch: toLoopback('api.anthropic.com'), apiKey: key })('claude-sonnet-4-5'),
  },
  {
    name: 'createGemini',
    env: /GEMINI_API_KEY or GOOGLE_API_KEY/,
    make: () => createGemini({ fetch: toLoopback('generativelanguage.googleapis.com') })('gemini-2.5-flash'),
    keyed: (key) =>
      createGemini({ fetch: toLoopback('generativelanguage.googleapis.com'), apiKey: key })(
        'gemini-2.5-flash',
      ),
  },
];

describe.each(providers)('$name without an API key', ({ name, env, make }) => {
  it('makes the provider and model without throwing', () => {
    expect(make().id).toMatch(/^[a-z]+:/);
  });

  it('throws a ConfigError naming the environment variable at the first call, sending nothing', async () => {
    const error = await rejectionOf(make().generate(HELLO));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^${name}: no API key\\. Set ${env.source} in the environment`));
    expect(error.message).toContain(`${name}({ apiKey })`);
    const streamed = await rejectionOf(make().stream!(HELLO)[Symbol.asyncIterator]().next());
    expect(streamed).toBeInstanceOf(ConfigError);
    expect(server.get().requests).toHaveLength(0);
  });

  it('reads a key set in the environment after the provider was made', async () => {
    const model = make();
    for (const variable of env.source.split(' or ')) process.env[variable] = 'from-env';
    server.get().handle(respond(401, 'bad key'));
    expect((await rejectionOf(model.generate(HELLO))).kind).toBe('auth');
    expect(server.get().requests).toHaveLength(1);
  });
});

describe('when no key is needed', () => {
  it('sends no key to a baseURL of a keyless server (Ollama, vLLM)', async () => {
    server.get().handle(respond(401, 'no'));
    const base = `${server.get().url}/v1`;
    for (const model of [
      createOpenAI({ baseURL: base })('qwen3'),
      createAnthropic({ baseURL: base })('claude'),
      createGemini({ baseURL: base })('gemini'),
    ]) {
      expect(await rejectionOf(model.generate(HELLO))).not.toBeInstanceOf(ConfigError);
    }
    expect(server.get().requests).toHaveLength(3);
    for (const request of server.get().requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.headers['x-goog-api-key']).toBeUndefined();
    }
  });

  it('accepts credentials given as a header instead of a key', async () => {
    server.get().handle(respond(401, 'no'));
    const headers = { Authorization: 'Bearer from-a-gateway' };
    const model = createOpenAI({ fetch: toLoopback('api.openai.com'), headers })('gpt-4o-mini');
    expect(await rejectionOf(model.generate(HELLO))).not.toBeInstanceOf(ConfigError);
    expect(server.get().lastRequest().headers.authorization).toBe('Bearer from-a-gateway');
  });
});

describe('in a run', () => {
  it('fails the run with the ConfigError itself: no retry, no fallback, no request', async () => {
    const [openai, anthropic] = providers;
    const runtime = testRuntime();
    const primary = openai!.make();
    const invoker = createResilientInvoker({ models: [primary, anthropic!.keyed('sk-ant')], runtime });
    const executor = new Executor({ model: primary, resilience: { invoker: () => invoker }, runtime });
    const error = await rejectionOf(executor.run('hi').result);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/^createOpenAI: no API key\. Set OPENAI_API_KEY/);
    expect(server.get().requests).toHaveLength(0);
  });
});
