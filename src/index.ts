/**
 * tandem-agents: an embeddable SDK for LLM agents that plan and act.
 * @packageDocumentation
 */
export * from './core/index.js';
export * from './model/index.js';
export * from './tools/index.js';
export * from './agents/index.js';
