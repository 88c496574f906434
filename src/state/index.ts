/**
 * Run state: serialisable run state and checkpoint stores, the progress store
 * a UI renders from events, and the SSE helper that streams them.
 * @module
 */
export * from './checkpoint-store.js';
export * from './paused-state.js';
export * from './progress.js';
export * from './progress-store.js';
export * from './progress-types.js';
export * from './run-state.js';
export * from './sse.js';
