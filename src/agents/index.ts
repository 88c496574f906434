/**
 * The agents layer, by concept: `executor/` (the ReAct loop and its safety
 * rules), `planner/` (plans and the planner model), `routing/` (classifier,
 * LLM router), `handoff/` (agent profiles and handoffs) and `orchestrator/`
 * (whole runs, one file per phase). `run.ts` is the handle they all return.
 * @module
 */

export { abortErrorOf, Run, type RunInit, toTandemError } from '../core/run.js';
export * from './executor/index.js';
export * from './handoff/index.js';
export * from './orchestrator/index.js';
export * from './planner/index.js';
export * from './routing/index.js';
