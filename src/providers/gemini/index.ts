/**
 * `tandem-agents/gemini`: the Gemini API adapter.
 * @packageDocumentation
 */
export { type GeminiPartMetadata, toGeminiContents } from './contents.js';
export { createGeminiEmbedding, GeminiEmbeddingModel, type GeminiEmbeddingOptions } from './embeddings.js';
export { createGemini, type GeminiOptions, type GeminiProvider, type GeminiSettings } from './model.js';
export { type GeminiModelSettings, toGeminiBody } from './request.js';
export type * from './wire.js';
