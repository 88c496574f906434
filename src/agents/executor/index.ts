/**
 * The executor: a ReAct agent (`Executor`), its options, and the rules that
 * keep its loop from going wrong — anti-repetition, error streaks, budget
 * warnings, length limits, reflection — and its structured output.
 * @module
 */
export * from './budget-warning.js';
export * from './error-streak.js';
export * from './executor.js';
export { LENGTH_CONTINUE_PROMPT, LENGTH_ROLLBACK_NOTE } from './length-limit.js';
export * from './option-groups.js';
export * from './options.js';
export * from './reflection.js';
export * from './repetition.js';
export { type SessionRunOptions, withSessionIds } from './session-run.js';
export { MOVED_ON_BOTH, mergeExecutorOptions, rejectMovedOptions } from './settings.js';
export {
  FORMAT_ANSWER_PROMPT,
  formatAnswer,
  type ObjectCall,
  type StructuredAnswer,
} from './structured-answer.js';
export { DEFAULT_OUTPUT_REASKS, type OutputPlan, outputPlan } from './structured-output.js';
export { toolOnlyOutput } from './tool-results.js';
