/**
 * `tandem-agents/ai-sdk`: any Vercel AI SDK language model as a tandem model.
 * `ai` is an optional peer dependency, referenced only by types.
 * @packageDocumentation
 */
export { type AISDKEmbeddingModel, type FromAISDKEmbeddingOptions, fromAISDKEmbedding } from './embedding.js';
export { type FromAISDKOptions, fromAISDK } from './model.js';
export type { AISDKLanguageModel } from './types.js';
