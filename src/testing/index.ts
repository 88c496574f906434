/**
 * Test doubles for agents built on tandem: a scripted model, a fake clock,
 * seeded randomness and sequential ids.
 * @packageDocumentation
 */
export * from './fake-clock.js';
export * from './scripted-model.js';
