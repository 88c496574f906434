/**
 * What an orchestration run needs of its orchestrator, built once from the
 * orchestrator's options: the planner, the executor, the planner model as an
 * executor for takeovers, the verifier and the finalizer.
 * @module
 */
import type { Runtime } from '../../core/seams.js';
import { invokerModelIds, type ModelInvoker } from '../../model/invoke.js';
import { invokerFactory } from '../../model/resilience/invoker-options.js';
import { ToolRegistry } from '../../tools/registry.js';
import { Executor } from '../executor/index.js';
import { Planner } from '../planner/index.js';
import type { FinalizeReducer } from './finalize.js';
import type { OrchestratorOptions } from './options.js';

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
  /** Ids of every model a run may call, fallbacks included: a cost budget needs their prices. */
  models: readonly string[];
}

/**
 * Whether runs pause to ask: the gate is asked to defer its questions, so a
 * tool batch finishes, the execution ends `interrupted`, and the run pauses
 * on that result.
 */
export function defersApprovals(options: OrchestratorOptions): boolean {
  return options.pauseOnInterrupt === true;
}

/** The collaborators of an orchestrator with `options`; `deferApprovals` as {@link defersApprovals} says. */
export function buildParts(
  options: OrchestratorOptions,
  runtime: Runtime,
  deferApprovals: boolean,
): OrchestrationParts {
  const invoke = invokerFactory(options, runtime);
  const tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
  const common = {
    ...options.executorOptions,
    tools,
    runtime,
    sandbox: options.sandbox,
    // The executors ask through the orchestrator's approvals (where `resume` delivers answers),
    // after their default tool guardrails unless the gate scans itself.
    gate: options.gate,
    approvals: options.approvals,
    deferApprovals: deferApprovals || options.executorOptions?.deferApprovals,
    // Guardrails given to the orchestrator also screen untrusted tool output.
    outputFilter: options.executorOptions?.outputFilter ?? options.guardrails?.outputFilter(),
  };
  const verifier = options.verifier === undefined ? options.executor : options.verifier;
  const finalizer = options.finalizer ?? options.executor;
  const invokers = {
    planner: invoke(options.planner),
    executor: invoke(options.executor),
    takeover: invoke(options.planner),
    verifier: verifier ? invoke(verifier) : undefined,
    finalizer: typeof finalizer === 'function' ? undefined : invoke(finalizer),
  };
  const models = new Set<string>();
  for (const invoker of Object.values(invokers))
    if (invoker) for (const id of invokerModelIds(invoker)) models.add(id);
  return {
    options,
    runtime,
    tools,
    planner: new Planner({
      ...options.plannerOptions,
      model: options.planner,
      invoker: invokers.planner,
      runtime,
    }),
    executor: new Executor({
      name: 'executor',
      ...common,
      model: options.executor,
      invoker: () => invokers.executor,
      instructions: options.instructions,
    }),
    takeover: new Executor({
      name: 'planner',
      ...common,
      model: options.planner,
      invoker: () => invokers.takeover,
    }),
    verifier: invokers.verifier,
    finalizer: invokers.finalizer
      ? { invoker: invokers.finalizer }
      : { reducer: finalizer as FinalizeReducer },
    models: [...models],
  };
}
