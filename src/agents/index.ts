export * from './executor.js';
export * from './executor-options.js';
export { toolOnlyOutput } from './executor-results.js';
export * from './loop-safety.js';
export { abortErrorOf, Run, type RunInit, toTandemError } from './run.js';
