/**
 * Safety: guardrails on input, output and tool calls, and human-in-the-loop
 * interrupts and approvals.
 * @module
 */
export * from './approvals/index.js';
export * from './guardrails/index.js';
