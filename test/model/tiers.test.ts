import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import {
  createModelTiers,
  createProviderTiers,
  type ProviderFactory,
  type ProviderFactoryOptions,
  parseProvidersConfig,
} from '../../src/model/resilience/tiers.js';
import type { ChatModel } from '../../src/model/types.js';
import { textReply } from './support.js';

describe('createModelTiers', () => {
  it('falls back flash → pro → max for unset tiers', () => {
    expect(createModelTiers({ max: 'M' }).get('flash')).toBe('M');
    expect(createModelTiers({ max: 'M', pro: 'P' }).get('flash')).toBe('P');
    expect(createModelTiers({ max: 'M', pro: 'P', flash: 'F' }).get('flash')).toBe('F');
    expect(createModelTiers({ flash: 'F' }).get('max')).toBe('F');
    expect(createModelTiers({ pro: 'P', flash: 'F' }).get('max')).toBe('P');
  });

  it('lets a per-tier override win over the default', () => {
    const tiers = createModelTiers({ max: 'M', pro: 'P', flash: 'F' }, { flash: 'cheap' });
    expect([tiers.get('max'), tiers.get('pro'), tiers.get('flash')]).toEqual(['M', 'P', 'cheap']);
    expect(tiers.has('flash')).toBe(true);
    expect(createModelTiers({ max: 'M' }).has('pro')).toBe(false);
  });

  it('rejects an empty set of tiers and unknown tier names', () => {
    expect(() => createModelTiers({})).toThrow(ConfigError);
    expect(() => createModelTiers({ max: 'M' }).get('ultra' as 'max')).toThrow(ConfigError);
  });
});

const seedConfig = JSON.stringify([
  {
    name: 'qwen',
    api_key: 'sk-test',
    base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    tier_models: { pro: 'qwen3.5-plus', flash: 'qwen3.5-flash' },
    enable_thinking: true,
  },
]);

describe('parseProvidersConfig', () => {
  it("reads seed 002's OPENAI_COMPATIBLE_PROVIDERS JSON", () => {
    expect(parseProvidersConfig(seedConfig)).toEqual([
      {
        name: 'qwen',
        type: 'openai',
        apiKey: 'sk-test',
        baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
        tierModels: { pro: 'qwen3.5-plus', flash: 'qwen3.5-flash' },
        thinking: true,
      },
    ]);
  });

  it('takes a camelCase object as well as an array', () => {
    const config = parseProvidersConfig({
      name: 'local',
      baseURL: 'http://127.0.0.1:11434/v1',
      tierModels: { max: 'qwen3' },
    });
    expect(config).toHaveLength(1);
    expect(config[0]).toMatchObject({ name: 'local', type: 'openai', tierModels: { max: 'qwen3' } });
  });

  for (const [label, input, message] of [
    ['bad JSON', '[{"name":', /invalid JSON/],
    ['a missing name', [{ tier_models: { max: 'm' } }], /0\.name/],
    ['a bad URL', [{ name: 'x', base_url: 'not a url', tier_models: { max: 'm' } }], /0\.baseURL/],
    ['an unknown key', [{ name: 'x', tier_models: { max: 'm' }, colour: 'red' }], /colour/],
    ['an unknown tier', [{ name: 'x', tier_models: { ultra: 'm' } }], /ultra/],
    ['no tier model', [{ name: 'x', tier_models: {} }], /no tier model/],
    ['an empty list', [], /\(root\)/],
    [
      'a duplicate name',
      [
        { name: 'x', tier_models: { max: 'a' } },
        { name: 'x', tier_models: { max: 'b' } },
      ],
      /duplicate/,
    ],
  ] as const) {
    it(`rejects ${label} with a ConfigError`, () => {
      expect(() => parseProvidersConfig(input)).toThrow(ConfigError);
      expect(() => parseProvidersConfig(input)).toThrow(message);
    });
  }
});

function fakeFactory(type: string, seen: ProviderFactoryOptions[]): ProviderFactory {
  return (options) => {
    seen.push(options);
    return (model): ChatModel => ({ id: `${type}:${model}`, generate: async () => textReply(model) });
  };
}

describe('createProviderTiers', () => {
  it('builds one model per tier with the factory, key and thinking flag', () => {
    const seen: ProviderFactoryOptions[] = [];
    const tiers = createProviderTiers(seedConfig, { openai: fakeFactory('openai', seen) });
    expect(tiers.get('pro').id).toBe('openai:qwen3.5-plus');
    expect(tiers.get('flash').id).toBe('openai:qwen3.5-flash');
    expect(tiers.get('max').id).toBe('openai:qwen3.5-plus');
    expect(seen).toEqual([
      {
        name: 'qwen',
        apiKey: 'sk-test',
        baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
        thinking: true,
      },
    ]);
  });

  it('reads the API key from the named env var and honours per-tier providers', () => {
    const seen: ProviderFactoryOptions[] = [];
    const config = [
      { name: 'main', apiKeyEnv: 'MAIN_KEY', tierModels: { max: 'big', pro: 'mid', flash: 'small' } },
      { name: 'cheap', type: 'other', tierModels: { flash: 'tiny' } },
    ];
    const tiers = createProviderTiers(
      config,
      { openai: fakeFactory('openai', seen), other: fakeFactory('other', seen) },
      { env: { MAIN_KEY: 'k1' }, tierProviders: { flash: 'cheap' } },
    );
    expect([tiers.get('max').id, tiers.get('pro').id, tiers.get('flash').id]).toEqual([
      'openai:big',
      'openai:mid',
      'other:tiny',
    ]);
    expect(seen).toEqual([{ name: 'main', apiKey: 'k1' }, { name: 'cheap' }]);
  });

  it('rejects a missing factory, a missing env var and an unknown provider', () => {
    const config = [{ name: 'main', apiKeyEnv: 'NOPE_KEY', tierModels: { max: 'big' } }];
    const factories = { openai: fakeFactory('openai', []) };
    expect(() => createProviderTiers(config, {}, { env: { NOPE_KEY: 'k' } })).toThrow(/no factory "openai"/);
    expect(() => createProviderTiers(config, factories, { env: {} })).toThrow(/NOPE_KEY is not set/);
    expect(() =>
      createProviderTiers(config, factories, { env: { NOPE_KEY: 'k' }, provider: 'ghost' }),
    ).toThrow(ConfigError);
  });
});
