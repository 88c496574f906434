/**
 * What an orchestration run needs of its orchestrator.
 * @module
 */
import type { Runtime } from '../core/seams.js';
import type { ModelInvoker } from '../model/invoke.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Executor } from './executor.js';
import type { FinalizeReducer } from './finalizer.js';
import type { OrchestratorOptions } from './orchestrator-options.js';
import type { Planner } from './planner.js';

/** The orchestrator's collaborators, built once per orchestrator. */
export interface OrchestrationParts {
  options: OrchestratorOptions;
  runtime: Runtime;
  planner: Planner;
  executor: Executor;
  takeover: Executor;
  verifier?: ModelInvoker;
  finalizer: { invoker?: ModelInvoker; reducer?: FinalizeReducer };
  tools: ToolRegistry;
}
