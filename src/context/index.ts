/**
 * The context layer: token accounting, conversation history, system prompt
 * building, compression and shared memory.
 * @module
 */
export * from './compressor.js';
export * from './compressor-options.js';
export * from './context-manager.js';
export * from './conversation-history.js';
export * from './encodings.js';
export * from './media-tokens.js';
export * from './model-table.js';
export * from './prefix-hash.js';
export * from './project-instructions.js';
export * from './prompt-sections.js';
export * from './shared-memory.js';
export * from './smart-truncate.js';
export * from './summary-prompt.js';
export * from './system-prompt-builder.js';
export * from './token-counter.js';
export * from './tool-output-pruning.js';
export * from './tool-pairs.js';
export * from './workspace-tree.js';
