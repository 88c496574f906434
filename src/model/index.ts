export type { EmbeddingModel, EmbeddingResult } from './embedding.js';
export * from './invoke.js';
export * from './json.js';
export type { LazySchema } from './lazy-zod.js';
export * from './partial-json.js';
export * from './partial-object.js';
export {
  type ContextRecoveryOptions,
  type ContextRecoveryPolicy,
  DEFAULT_CONTEXT_TIERS,
  nextContextLimit,
  resolveContextRecoveryPolicy,
} from './resilience/context-recovery.js';
export { StreamInterruptedError } from './resilience/errors.js';
export { DEFAULT_EAGER_FALLBACK_KINDS, type FallbackOptions, isEmptyReply } from './resilience/fallback.js';
export type { ResilienceOptions } from './resilience/invoker-options.js';
export {
  createResilientInvoker,
  directInvoker,
  type ResilientInvokerOptions,
} from './resilience/resilient-invoker.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  type RetryBackoff,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
} from './resilience/retry-policy.js';
export { estimatePromptTokens, type LargePromptTimeout } from './resilience/stale-watch.js';
export {
  DEFAULT_STREAM_POLICY,
  resolveStreamPolicy,
  type StreamOptions,
  type StreamPolicy,
} from './resilience/stream-call.js';
export * from './resilience/tiers.js';
export { jsonSchemaOf } from './schema-json.js';
export * from './stream.js';
export * from './structured.js';
export * from './types.js';
