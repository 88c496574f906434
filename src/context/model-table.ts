/**
 * Context windows of well-known models, and the rule that picks the window a
 * counter and compressor work with.
 * @module
 */
import type { ChatModel } from '../model/types.js';
import { bareModelName } from './encodings.js';

/** Window assumed when nothing else is known. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

// Longest matching prefix wins, so specific entries may follow general ones.
const KNOWN_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-3.5-turbo', 16_385],
  ['gpt-4', 8_192],
  ['gpt-4-32k', 32_768],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-1106', 128_000],
  ['gpt-4-0125', 128_000],
  ['gpt-4o', 128_000],
  ['chatgpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4.5', 128_000],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o1-mini', 128_000],
  ['o1-preview', 128_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude', 200_000],
  ['gemini-1.5-pro', 2_097_152],
  ['gemini-1.5-flash', 1_048_576],
  ['gemini-2', 1_048_576],
  ['gemini-3', 1_048_576],
  ['deepseek', 128_000],
  ['llama-3', 128_000],
  ['mistral-large', 128_000],
  ['qwen3', 131_072],
];

/** The known context window of `model` (any `provider:` / `vendor/` form), or `undefined`. */
export function knownContextWindow(model: string): number | undefined {
  const name = bareModelName(model);
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/**
 * Where a context window came from: the `contextWindow` option, the model's
 * `info` (the adapter's, or learned from the server), the known-models
 * table, a provider's context-length error, or the 128k assumed for a model
 * nothing is known of.
 */
export type ContextWindowSource = 'option' | 'model_info' | 'known_model' | 'provider_error' | 'assumed';

/**
 * The context window to work with: the explicit option, else the adapter's
 * `info.contextWindow`, else the known-models table, else 128k.
 */
export function resolveContextWindow(options: {
  contextWindow?: number;
  model?: ChatModel | string;
}): number {
  return contextWindowOf(options).tokens;
}

/** {@link resolveContextWindow} and where the number came from. */
export function contextWindowOf(options: { contextWindow?: number; model?: ChatModel | string }): {
  tokens: number;
  source: ContextWindowSource;
} {
  if (options.contextWindow && options.contextWindow > 0)
    return { tokens: options.contextWindow, source: 'option' };
  const model = options.model;
  if (model && typeof model !== 'string' && model.info?.contextWindow) {
    return { tokens: model.info.contextWindow, source: 'model_info' };
  }
  const id = typeof model === 'string' ? model : model?.id;
  const known = id ? knownContextWindow(id) : undefined;
  return known
    ? { tokens: known, source: 'known_model' }
    : { tokens: DEFAULT_CONTEXT_WINDOW, source: 'assumed' };
}
