/**
 * `tandem-agents/anthropic`: the Anthropic Messages API adapter.
 * @packageDocumentation
 */
export {
  applyCacheBreakpoints,
  type CacheOptions,
  type CacheTarget,
  countCacheBreakpoints,
  MAX_CACHE_BREAKPOINTS,
} from './cache.js';
export { toAnthropicMessages } from './messages.js';
export {
  type AnthropicOptions,
  type AnthropicProvider,
  type AnthropicSettings,
  createAnthropic,
} from './model.js';
export { type AnthropicModelSettings, DEFAULT_MAX_TOKENS, toAnthropicBody } from './request.js';
export type * from './wire.js';
