/**
 * Test doubles for agents built on tandem: a scripted model, a fake clock,
 * seeded randomness and sequential ids, and the event-ordering invariant checker.
 * @packageDocumentation
 */
export * from './fake-clock.js';
export * from './hash-embedder.js';
export * from './invariants.js';
export * from './scripted-image-model.js';
export * from './scripted-model.js';
