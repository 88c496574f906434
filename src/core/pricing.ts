/**
 * What model calls cost. A {@link PriceTable} maps model ids to prices per
 * million tokens; {@link costOf} turns a call's {@link Usage} into US dollars.
 * The event bus stamps `usage.costUsd` on every `usage` event when a run is
 * given prices, so per-call, per-step and per-run costs come from the same
 * events a UI already reduces.
 * @module
 */
import { ConfigError } from './errors.js';
import type { Usage } from './usage.js';

/** Prices of one model in US dollars per million tokens. */
export interface ModelPrice {
  /** Uncached input tokens. */
  input: number;
  /** Output tokens (reasoning included unless {@link ModelPrice.reasoning} is set). */
  output: number;
  /** Input tokens read from the provider's prompt cache. Default: `input`. */
  cachedInput?: number;
  /** Reasoning tokens, when the provider bills them apart. Default: `output`. */
  reasoning?: number;
}

/**
 * Prices by model id. A usage event's `model` (a model id such as
 * `openai:gpt-4o-2024-08-06`) is looked up as is, then as
 * `provider:model` and as the bare model id, each also by the longest table
 * key it starts with followed by `-` (dated and suffixed variants price as
 * their family). The known id shapes are read apart: `provider:model` (the
 * built-in adapters), `aisdk:<sdk provider>:<model>` from `fromAISDK` (the
 * provider is the SDK's up to its first dot, so `aisdk:openai.chat:gpt-4o`
 * prices as `openai:gpt-4o`, then `gpt-4o`), a `vendor/model` route
 * (gateways, OpenRouter) and a `vendor.model` Bedrock id (the part after the
 * vendor). So a key `openai:gpt-4o` prices that model from one provider only.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of common models (USD per million tokens, standard tier, short
 * context) as published by the providers in October 2025. Prices change:
 * pass your own table (merged over this one) for billing you rely on.
 */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.31, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.075, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.025, output: 0.4 },
};

/** Looks up the price of a model id, or `undefined` when the table has none. */
export type PriceLookup = (model: string) => ModelPrice | undefined;

/**
 * A lookup over `table` (your prices merged over {@link DEFAULT_PRICES} when
 * `defaults` is true, the default). Lookups are cached per model id.
 * @throws {ConfigError} when a price is negative or not a finite number.
 */
export function priceLookup(table: PriceTable = {}, options: { defaults?: boolean } = {}): PriceLookup {
  const merged: Record<string, ModelPrice> = {
    ...(options.defaults === false ? {} : DEFAULT_PRICES),
    ...table,
  };
  for (const [model, price] of Object.entries(merged)) checkPrice(model, price);
  // Longest keys first, so `gpt-4o-mini-2024` prices as gpt-4o-mini, not gpt-4o.
  const keys = Object.keys(merged).sort((a, b) => b.length - a.length);
  const cache = new Map<string, ModelPrice | undefined>();
  return (model) => {
    if (cache.has(model)) return cache.get(model);
    const price = find(merged, keys, model);
    cache.set(model, price);
    return price;
  };
}

/**
 * The lookup of a `prices` option: `false` for none, else your table merged
 * over {@link DEFAULT_PRICES}.
 * @throws {ConfigError} for an invalid price.
 */
export function pricesOption(option: PriceTable | false | undefined): PriceLookup | undefined {
  return option === false ? undefined : priceLookup(option);
}

/** The cost of `usage` in US dollars at `price`. Cached and reasoning tokens are subsets of input and output. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const reasoning = Math.min(usage.reasoningTokens, usage.outputTokens);
  const micro =
    (usage.inputTokens - cached) * price.input +
    cached * (price.cachedInput ?? price.input) +
    (usage.outputTokens - reasoning) * price.output +
    reasoning * (price.reasoning ?? price.output);
  return micro / 1_000_000;
}

/**
 * The ids of `models` that `prices` has no price for: every one of them
 * without prices. A cost budget cannot count what these models spend.
 */
export function unpricedModels(models: Iterable<string>, prices: PriceLookup | undefined): string[] {
  const unpriced = new Set<string>();
  for (const model of models) if (!prices?.(model)) unpriced.add(model);
  return [...unpriced];
}

function find(table: Record<string, ModelPrice>, keys: string[], model: string): ModelPrice | undefined {
  for (const name of namesOf(model)) {
    const lower = name.toLowerCase();
    const price =
      table[name] ??
      table[lower] ??
      table[keys.find((key) => lower.startsWith(`${key.toLowerCase()}-`)) ?? ''];
    if (price) return price;
  }
  return undefined;
}

// `us.anthropic.claude-…`: Bedrock's region and vendor before the model's own name.
const BEDROCK_VENDOR = /^(?:[a-z]+\.)+(?=[a-z])/;

/** The names `model` is priced under, most specific first (see {@link PriceTable}). */
function namesOf(model: string): string[] {
  const names = [model];
  let provider: string | undefined;
  let id = model;
  const colon = model.indexOf(':');
  if (colon >= 0) {
    provider = model.slice(0, colon);
    id = model.slice(colon + 1);
    const inner = id.indexOf(':');
    if (provider === 'aisdk' && inner >= 0) {
      provider = id.slice(0, inner).split('.')[0];
      id = id.slice(inner + 1);
      names.push(`${provider}:${id}`);
    }
    names.push(id);
  }
  const slash = id.lastIndexOf('/');
  if (slash >= 0) names.push(id.slice(slash + 1));
  const vendor = BEDROCK_VENDOR.exec(id);
  if (vendor && slash < 0) names.push(id.slice(vendor[0].length));
  return names;
}

function checkPrice(model: string, price: ModelPrice): void {
  for (const field of ['input', 'output', 'cachedInput', 'reasoning'] as const) {
    const value = price[field];
    if (value === undefined && (field === 'cachedInput' || field === 'reasoning')) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigError(
        `prices["${model}"].${field} must be a non-negative number of US dollars per million tokens, got ${String(value)}.`,
      );
    }
  }
}
