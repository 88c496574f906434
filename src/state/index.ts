/**
 * Run state: serialisable run state and checkpoint stores, the progress store
 * a UI renders from events, and the SSE helper that streams them.
 * @module
 */
export * from './checkpoint-store.js';
export * from './delete-resource.js';
export * from './in-memory-memory-store.js';
export type {
  MemoryIds,
  MemoryOptions,
  MemoryStores,
  MemoryTurn,
  RecallOptions,
} from './long-term-memory.js';
export * from './memory-store.js';
export * from './paused-state.js';
export * from './progress.js';
export * from './progress-store.js';
export * from './progress-types.js';
export * from './run-state.js';
export * from './session.js';
export * from './session-memory.js';
export * from './session-run.js';
export * from './sse.js';
export type { WorkingMemoryOptions } from './working-memory.js';
