/**
 * A providers config's `enable_thinking` reaches Anthropic as `thinking` and
 * Gemini as `thinkingConfig` (it used to be dropped by both factories); a
 * model's own thinking setting still wins.
 */
import { describe, expect, it } from 'vitest';
import { createProviderTiers } from '../../src/model/index.js';
import { createAnthropic } from '../../src/providers/anthropic/index.js';
import { createGemini } from '../../src/providers/gemini/index.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';

const server = useFixtureServer();
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

/** The body the `pro` tier of a one-provider config sends. */
async function sentBody(type: 'anthropic' | 'gemini', model: string, thinking: boolean): Promise<any> {
  server.handle(
    serveFixture(
      type === 'anthropic'
        ? 'anthropic/nonstream-max-tokens.json'
        : 'gemini/generate-content-max-tokens.json',
    ),
  );
  const config = [
    {
      name: type,
      type,
      base_url: `${server.url}/v1`,
      api_key: 'test-key',
      tier_models: { pro: model },
      enable_thinking: thinking,
    },
  ];
  const tiers = createProviderTiers(config, { anthropic: createAnthropic, gemini: createGemini });
  await tiers.get('pro').generate(ask);
  return server.lastRequest().body;
}

describe("a providers config's enable_thinking", () => {
  it('turns Anthropic extended thinking on with a budget, and leaves it off otherwise', async () => {
    const on = await sentBody('anthropic', 'claude-sonnet-4-5', true);
    expect(on.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    // The budget comes on top of the default answer length.
    expect(on.max_tokens).toBe(4096 + 4096);
    const off = await sentBody('anthropic', 'claude-sonnet-4-5', false);
    expect(off.thinking).toBeUndefined();
  });

  it('sets Gemini thinkingConfig: dynamic with thoughts on; budget 0 (2.5) or the lowest level (3) off', async () => {
    const on = await sentBody('gemini', 'gemini-2.5-flash', true);
    expect(on.generationConfig.thinkingConfig).toEqual({ thinkingBudget: -1, includeThoughts: true });
    const off = await sentBody('gemini', 'gemini-2.5-flash', false);
    expect(off.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    const off3 = await sentBody('gemini', 'gemini-3-pro-preview', false);
    expect(off3.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'low' });
  });

  it("yields to a model's own thinking setting", async () => {
    server.handle(serveFixture('anthropic/nonstream-max-tokens.json'));
    const claude = createAnthropic({ apiKey: 'k', baseURL: `${server.url}/v1`, thinking: true })(
      'claude-sonnet-4-5',
      { thinking: { budgetTokens: 2048 } },
    );
    await claude.generate(ask);
    expect(server.lastRequest().body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    server.handle(serveFixture('gemini/generate-content-max-tokens.json'));
    const gemini = createGemini({ apiKey: 'k', baseURL: `${server.url}/v1`, thinking: false })(
      'gemini-2.5-flash',
      { thinking: { level: 'high' } },
    );
    await gemini.generate(ask);
    expect(server.lastRequest().body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'high' });
  });
});
