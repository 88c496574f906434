/**
 * The planner: the `Planner` (plan or not, plans, revisions, enhanced step
 * instructions, takeover prompts), its prompts, and plans with their
 * validation.
 * @module
 */
export * from './options.js';
export * from './plan.js';
export * from './plan-error.js';
export { planDraftSchema, planProblems, planSchema, planStepSchema } from './plan-schema.js';
export * from './planner.js';
export * from './prompts.js';
