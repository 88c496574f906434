/**
 * Model tiers (`max` for quality, `pro` for balance, `flash` for speed and
 * cost) and the providers config that fills them, as seed 002 configures
 * OpenAI-compatible providers (`OPENAI_COMPATIBLE_PROVIDERS`). The core never
 * imports an adapter: building models takes the caller's factory map.
 * @module
 */
import { z } from 'zod/v4';
import { ConfigError, errorMessage } from '../../core/errors.js';
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

const tierModelsSchema = z
  .object({ max: z.string().min(1), pro: z.string().min(1), flash: z.string().min(1) })
  .partial()
  .strict()
  .refine((tiers) => Object.keys(tiers).length > 0, 'names no tier model');

const providerSchema = z
  .object({
    name: z.string().min(1),
    type: z.string().min(1).default('openai'),
    baseURL: z.url().optional(),
    apiKey: z.string().min(1).optional(),
    apiKeyEnv: z.string().min(1).optional(),
    tierModels: tierModelsSchema,
    thinking: z.boolean().optional(),
  })
  .strict();

/** One provider of the config, normalised to camelCase. */
export type ProviderConfig = z.infer<typeof providerSchema>;

/** Seed 002's snake_case keys and their camelCase names. */
const SNAKE_KEYS: Readonly<Record<string, string>> = {
  base_url: 'baseURL',
  api_key: 'apiKey',
  api_key_env: 'apiKeyEnv',
  tier_models: 'tierModels',
  enable_thinking: 'thinking',
};

function camelKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[SNAKE_KEYS[key] ?? key] = item;
  return out;
}

const configSchema = z.array(z.preprocess(camelKeys, providerSchema)).min(1);

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
  const parsed = configSchema.safeParse(Array.isArray(input) ? input : [input]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new ConfigError(`providers config: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const seen = new Set<string>();
  for (const provider of parsed.data) {
    if (seen.has(provider.name))
      throw new ConfigError(`providers config: duplicate provider "${provider.name}"`);
    seen.add(provider.name);
  }
  return parsed.data;
}

/** What a provider factory gets (`createOpenAI` and friends take these and more). */
export interface ProviderFactoryOptions {
  /** The config's provider name; tandem adapters prefix model ids with it (`qwen:qwen3.5-plus`). */
  name: string;
  apiKey?: string;
  baseURL?: string;
  /** The config's thinking flag (seed: `enable_thinking`), for adapters that know it. */
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
