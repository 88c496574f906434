/**
 * tandem-agents: an embeddable SDK for LLM agents that plan and act.
 * @packageDocumentation
 */

export * from './agents/index.js';
export * from './context/index.js';
export * from './core/index.js';
export * from './model/index.js';
export * from './safety/index.js';
export * from './skills/index.js';
export * from './state/index.js';
export * from './tools/index.js';
