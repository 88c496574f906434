/**
 * A providers config's `enable_thinking` (createOpenAI's `thinking`) reaches
 * the server as the field that server reads, or is refused where there is
 * none: OpenAI's own API.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { createProviderTiers } from '../../src/model/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';

const server = useFixtureServer();
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

/** A fetch that sends what the model addresses to `host` to the loopback server instead. */
function via(host: string): typeof fetch {
  return (input, init) => fetch(String(input).replace(`https://${host}`, server.url), init);
}

async function bodyFrom(host: string, path: string, thinking: boolean): Promise<any> {
  server.handle(serveFixture('openai-chat/nonstream-text.json'));
  const provider = createOpenAI({
    apiKey: 'sk-test',
    baseURL: `https://${host}${path}`,
    fetch: via(host),
    thinking,
  });
  await provider('some-model').generate(ask);
  return server.lastRequest().body;
}

describe('thinking on OpenAI-compatible servers', () => {
  it("sends a providers config's enable_thinking to a self-hosted server as chat_template_kwargs", async () => {
    server.handle(serveFixture('openai-chat/nonstream-text.json'));
    const config = [
      {
        name: 'qwen',
        base_url: `${server.url}/v1`,
        tier_models: { pro: 'qwen3-8b' },
        enable_thinking: false,
      },
    ];
    const tiers = createProviderTiers(config, { openai: createOpenAI });
    await tiers.get('pro').generate(ask);
    const body = server.lastRequest().body as Record<string, unknown>;
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: false, thinking: false });
  });

  it('sends enable_thinking to Alibaba Cloud and thinking.type to DeepSeek, GLM and Kimi', async () => {
    expect((await bodyFrom('dashscope.aliyuncs.com', '/compatible-mode/v1', true)).enable_thinking).toBe(
      true,
    );
    expect(
      (await bodyFrom('dashscope-intl.aliyuncs.com', '/compatible-mode/v1', false)).enable_thinking,
    ).toBe(false);
    expect((await bodyFrom('api.deepseek.com', '/v1', false)).thinking).toEqual({ type: 'disabled' });
    expect((await bodyFrom('open.bigmodel.cn', '/api/paas/v4', true)).thinking).toEqual({ type: 'enabled' });
    expect((await bodyFrom('api.moonshot.ai', '/v1', false)).thinking).toEqual({ type: 'disabled' });
    expect((await bodyFrom('api.deepseek.com', '/v1', true)).chat_template_kwargs).toBeUndefined();
  });

  it("lets a model's extraBody override the mapped field", async () => {
    server.handle(serveFixture('openai-chat/nonstream-text.json'));
    const provider = createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, thinking: true });
    await provider('m', { extraBody: { chat_template_kwargs: { enable_thinking: false } } }).generate(ask);
    expect(server.lastRequest().body).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
  });

  it("refuses thinking on OpenAI's own API and on a Responses model, before any request", () => {
    expect(() => createOpenAI({ apiKey: 'sk-test', thinking: true })).toThrow(ConfigError);
    expect(() => createOpenAI({ apiKey: 'sk-test', thinking: false })).toThrow(/no field on OpenAI's API/);
    const config = [
      { name: 'openai', api_key: 'sk-test', tier_models: { pro: 'gpt-5-mini' }, enable_thinking: true },
    ];
    expect(() => createProviderTiers(config, { openai: createOpenAI })).toThrow(ConfigError);
    const local = createOpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, thinking: true });
    expect(() => local.responses('m')).toThrow(/Chat Completions models/);
    expect(server.requests).toHaveLength(0);
  });
});
