/**
 * Node filesystem adapters: a checkpoint store with one JSON file per run.
 * @packageDocumentation
 */
export * from './file-checkpoint-store.js';
