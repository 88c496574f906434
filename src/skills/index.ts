/**
 * Skills: typed, composable capabilities an agent invokes through
 * `invoke_skill`, an orchestrator invokes directly, and skills invoke in turn.
 * @module
 */
export * from './context.js';
export * from './define-skill.js';
export * from './errors.js';
export * from './registry.js';
export * from './research/index.js';
export * from './skills-index.js';
export * from './tools.js';
