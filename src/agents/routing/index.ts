/**
 * Routing: the heuristic classifier (simple or complex, without a model call)
 * and the LLM router (which registered agent handles a query).
 * @module
 */
export * from './heuristic-classifier.js';
export * from './llm-router.js';
export * from './router-prompt.js';
