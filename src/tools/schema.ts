/**
 * Schemas as users bring them, for tool parameters: the adapter lives in
 * `model/schema.ts`, where `generateObject` and structured output use it too.
 * @module
 */
export * from '../model/schema.js';
