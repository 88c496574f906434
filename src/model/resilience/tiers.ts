/**
 * Model tiers (`max` for quality, `pro` for balance, `flash` for speed and
 * cost) and the providers config that fills them, as seed 002 configures
 * OpenAI-compatible providers (`OPENAI_COMPATIBLE_PROVIDERS`). The core never
 * imports an adapter: building models takes the caller's factory map. The
 * config is read by hand, not by a schema library: it is read synchronously
 * at start-up, where importing zod would cost more than the whole read. Its
 * problems are worded as zod words them.
 * @module
 */
import { ConfigError, errorMessage } from '../../core/errors.js';
import { isRecord } from '../records.js';
import type { ChatModel } from '../types.js';

/** A model tier. */
export type ModelTier = 'max' | 'pro' | 'flash';

/** Every tier, best first. */
export const MODEL_TIERS: readonly ModelTier[] = Object.freeze(['max', 'pro', 'flash']);

/** A value per tier; any may be unset. */
export type TierMap<T> = Partial<Record<ModelTier, T>>;

/** Where an unset tier borrows from: a cheaper tier asks up first, so it never gets worse than asked. */
const BORROW_ORDER: Readonly<Record<ModelTier, readonly ModelTier[]>> = {
  flash: ['flash', 'pro', 'max'],
  pro: ['pro', 'max', 'flash'],
  max: ['max', 'pro', 'flash'],
};

/** Models by tier. */
export interface ModelTiers<T = ChatModel> {
  /** The model of `tier`; an unset tier falls back flash → pro → max (max → pro → flash). */
  get(tier: ModelTier): T;
  /** True when `tier` itself is set (no borrowing). */
  has(tier: ModelTier): boolean;
}

/**
 * Tiers from defaults and per-tier overrides (an override wins over the
 * default of its tier). At least one tier must be set ({@link ConfigError}).
 */
export function createModelTiers<T>(defaults: TierMap<T>, overrides: TierMap<T> = {}): ModelTiers<T> {
  const resolved: TierMap<T> = {};
  for (const tier of MODEL_TIERS) {
    const value = overrides[tier] ?? defaults[tier];
    if (value !== undefined) resolved[tier] = value;
  }
  if (Object.keys(resolved).length === 0) throw new ConfigError('model tiers: no tier is set');
  return {
    get(tier) {
      const order = BORROW_ORDER[tier];
      if (!order) throw new ConfigError(`model tiers: unknown tier "${String(tier)}" (max, pro, flash)`);
      for (const candidate of order) {
        const value = resolved[candidate];
        if (value !== undefined) return value;
      }
      throw new ConfigError('model tiers: no tier is set');
    },
    has: (tier) => resolved[tier] !== undefined,
  };
}

/** One provider of the config, normalised to camelCase. */
export interface ProviderConfig {
  name: string;
  /** The factory that builds its models. Default `openai`. */
  type: string;
  baseURL?: string;
  apiKey?: string;
  /** The environment variable holding the API key. */
  apiKeyEnv?: string;
  tierModels: TierMap<string>;
  thinking?: boolean;
}

/** Seed 002's snake_case keys and their camelCase names. */
const SNAKE_KEYS: Readonly<Record<string, string>> = {
  base_url: 'baseURL',
  api_key: 'apiKey',
  api_key_env: 'apiKeyEnv',
  tier_models: 'tierModels',
  enable_thinking: 'thinking',
};

const PROVIDER_KEYS = ['name', 'type', 'baseURL', 'apiKey', 'apiKeyEnv', 'tierModels', 'thinking'];

/**
 * Validates a providers config: an array (or one provider object), or its
 * JSON text as found in an environment variable. Keys may be seed 002's
 * snake_case (`base_url`, `api_key`, `tier_models`, `enable_thinking`) or
 * camelCase. `type` names the factory (default `openai`). Bad JSON, a
 * missing field, an unknown key or a duplicate name is a {@link ConfigError}.
 */
export function parseProvidersConfig(jsonOrObject: unknown): ProviderConfig[] {
  let input = jsonOrObject;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch (error) {
      throw new ConfigError(`providers config: invalid JSON: ${errorMessage(error)}`);
    }
  }
  const list = Array.isArray(input) ? input : [input];
  if (list.length === 0) invalid('', 'Too small: expected array to have >=1 items');
  const providers = list.map((item, i) => readProvider(item, String(i)));
  const seen = new Set<string>();
  for (const provider of providers) {
    if (seen.has(provider.name))
      throw new ConfigError(`providers config: duplicate provider "${provider.name}"`);
    seen.add(provider.name);
  }
  return providers;
}

function readProvider(item: unknown, at: string): ProviderConfig {
  const value = camelKeys(object(item, at));
  const provider: ProviderConfig = {
    name: text(value.name, `${at}.name`),
    type: value.type === undefined ? 'openai' : text(value.type, `${at}.type`),
    tierModels: {},
  };
  if (value.baseURL !== undefined) provider.baseURL = url(value.baseURL, `${at}.baseURL`);
  if (value.apiKey !== undefined) provider.apiKey = text(value.apiKey, `${at}.apiKey`);
  if (value.apiKeyEnv !== undefined) provider.apiKeyEnv = text(value.apiKeyEnv, `${at}.apiKeyEnv`);
  provider.tierModels = readTierModels(value.tierModels, `${at}.tierModels`);
  if (value.thinking !== undefined) {
    if (typeof value.thinking !== 'boolean') invalid(`${at}.thinking`, expected('boolean', value.thinking));
    provider.thinking = value.thinking;
  }
  onlyKeys(value, PROVIDER_KEYS, at);
  return provider;
}

function readTierModels(item: unknown, at: string): TierMap<string> {
  const value = object(item, at);
  const tiers: TierMap<string> = {};
  for (const tier of MODEL_TIERS) {
    if (value[tier] !== undefined) tiers[tier] = text(value[tier], `${at}.${tier}`);
  }
  onlyKeys(value, MODEL_TIERS, at);
  if (Object.keys(tiers).length === 0) invalid(at, 'names no tier model');
  return tiers;
}

function camelKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[SNAKE_KEYS[key] ?? key] = item;
  return out;
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(at, expected('object', value));
  return value;
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string') invalid(at, expected('string', value));
  if (value.length === 0) invalid(at, 'Too small: expected string to have >=1 characters');
  return value;
}

function url(value: unknown, at: string): string {
  if (typeof value !== 'string') invalid(at, expected('string', value));
  // As zod's `z.url()`: trimmed, and without the tabs and newlines the URL parser ignores.
  const trimmed = value.trim();
  try {
    new URL(trimmed);
  } catch {
    invalid(at, 'Invalid URL');
  }
  return trimmed.replace(/[\t\n\r]/g, '');
}

function onlyKeys(value: Record<string, unknown>, known: readonly string[], at: string): void {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) invalid(at, `Unrecognized key: "${unknown}"`);
}

function expected(type: string, value: unknown): string {
  const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `Invalid input: expected ${type}, received ${received}`;
}

function invalid(at: string, message: string): never {
  throw new ConfigError(`providers config: ${at || '(root)'}: ${message}`);
}

/** What a provider factory gets (`createOpenAI` and friends take these and more). */
export interface ProviderFactoryOptions {
  /** The config's provider name; tandem adapters prefix model ids with it (`qwen:qwen3.5-plus`). */
  name: string;
  apiKey?: string;
  baseURL?: string;
  /**
   * The config's thinking flag (seed: `enable_thinking`). `createOpenAI` sends
   * it as the field the server at `baseURL` reads, and refuses it with a
   * `ConfigError` on OpenAI's own API; `createAnthropic` sends `thinking`,
   * `createGemini` `thinkingConfig`.
   */
  thinking?: boolean;
}

/** A provider factory: options in, a function from model name to {@link ChatModel} out. */
export type ProviderFactory = (options: ProviderFactoryOptions) => (model: string) => ChatModel;

/** Options of {@link createProviderTiers}. */
export interface ProviderTiersOptions {
  /** Provider used for every tier without an override (default: the first of the config). */
  provider?: string;
  /** Per-tier provider (seed: `MAX_MODEL_PROVIDER`, `PRO_MODEL_PROVIDER`, `LITE_MODEL_PROVIDER`). */
  tierProviders?: TierMap<string>;
  /** Where `apiKeyEnv` is looked up (default `process.env` where it exists). */
  env?: Record<string, string | undefined>;
}

/**
 * Builds {@link ModelTiers} of {@link ChatModel}s from a providers config and
 * a factory map such as `{ openai: createOpenAI }`. Each tier takes the model
 * its provider names for it; a tier its provider leaves unset borrows from
 * another tier. Unknown providers or factory types, and an `apiKeyEnv` that
 * is not set, are {@link ConfigError}s.
 */
export function createProviderTiers(
  config: unknown,
  factories: Readonly<Record<string, ProviderFactory>>,
  options: ProviderTiersOptions = {},
): ModelTiers<ChatModel> {
  const providers = parseProvidersConfig(config);
  const env = options.env ?? processEnv();
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  const defaultName = options.provider ?? (providers[0] as ProviderConfig).name;
  const built = new Map<string, (model: string) => ChatModel>();
  const models: TierMap<ChatModel> = {};
  for (const tier of MODEL_TIERS) {
    const name = options.tierProviders?.[tier] ?? defaultName;
    const provider = byName.get(name);
    if (!provider) throw new ConfigError(`providers config: no provider named "${name}" (tier ${tier})`);
    const modelName = provider.tierModels[tier];
    if (modelName === undefined) continue;
    let make = built.get(name);
    if (!make) {
      make = buildProvider(provider, factories, env);
      built.set(name, make);
    }
    models[tier] = make(modelName);
  }
  return createModelTiers(models);
}

function buildProvider(
  provider: ProviderConfig,
  factories: Readonly<Record<string, ProviderFactory>>,
  env: Record<string, string | undefined>,
): (model: string) => ChatModel {
  const factory = factories[provider.type];
  if (!factory) {
    throw new ConfigError(`providers config: no factory "${provider.type}" for provider "${provider.name}"`);
  }
  const factoryOptions: ProviderFactoryOptions = { name: provider.name };
  const apiKey = provider.apiKey ?? (provider.apiKeyEnv ? env[provider.apiKeyEnv] : undefined);
  if (provider.apiKeyEnv && !apiKey) {
    throw new ConfigError(`providers config: ${provider.apiKeyEnv} is not set (provider "${provider.name}")`);
  }
  if (apiKey) factoryOptions.apiKey = apiKey;
  if (provider.baseURL) factoryOptions.baseURL = provider.baseURL;
  if (provider.thinking !== undefined) factoryOptions.thinking = provider.thinking;
  return factory(factoryOptions);
}

function processEnv(): Record<string, string | undefined> {
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return holder.process?.env ?? {};
}
