/**
 * Handoffs: agents as named profiles, the `HandoffManager` that runs them
 * and carries out the handoffs they ask for, the handoff tools, the rules of
 * one run, the input a target receives, and artifact moves.
 * @module
 */
export * from './agent-profiles.js';
export * from './artifacts.js';
export * from './handoff-manager.js';
export * from './options.js';
export * from './session-rules.js';
export * from './target-input.js';
export * from './tools.js';
