/**
 * Evals for agents built on tandem: datasets, `evaluate`, scorers, reports,
 * `compare` for a CI gate, and the `tandem-eval` command line.
 * `describeEval` (vitest) lives in `tandem-agents/evals/vitest`.
 * @packageDocumentation
 */
export * from './cli.js';
export * from './dataset.js';
export * from './evaluate.js';
export * from './progress.js';
export * from './report/compare.js';
export * from './report/html.js';
export * from './report/markdown.js';
export * from './scorers/judge.js';
export * from './scorers/text.js';
export * from './scorers/trajectory.js';
export { mean, passAtK, variance } from './stats.js';
export * from './task.js';
export type * from './types.js';
