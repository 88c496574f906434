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
import { Executor, mergeExecutorOptions } from '../executor/index.js';
import { Planner } from '../planner/index.js';
import { delegateToResearchTool, RESEARCH_AGENT, RunMemories } from './delegation.js';
import type { FinalizeReducer } from './option-groups.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import type { OrchestratorSettings } from './settings.js';

/** The orchestrator's collaborators, built once per orchestrator. */
export interface OrchestrationParts {
  options: OrchestratorSettings;
  runtime: Runtime;
  planner: Planner;
  executor: Executor;
  takeover: Executor;
  verifier?: ModelInvoker;
  finalizer: { invoker?: ModelInvoker; reducer?: FinalizeReducer };
  tools: ToolRegistry;
  /** The shared memory of each live run (see `delegation.ts`). */
  memories: RunMemories;
  /** Ids of every model a run may call, fallbacks included: a cost budget needs their prices. */
  models: readonly string[];
}

/**
 * Whether runs pause to ask: the gate is asked to defer its questions, so a
 * tool batch finishes, the execution ends `interrupted`, and the run pauses
 * on that result.
 */
export function defersApprovals(options: OrchestratorSettings): boolean {
  return options.pauseOnInterrupt === true;
}

/** The collaborators of an orchestrator with `options`; `deferApprovals` (the executors' `safety.pauseOnInterrupt`) as {@link defersApprovals} says. */
export function buildParts(
  options: OrchestratorSettings,
  runtime: Runtime,
  deferApprovals: boolean,
): OrchestrationParts {
  const invoke = invokerFactory(options, runtime);
  const memories = new RunMemories();
  const tools = executorTools(options, memories);
  // The executors ask through the orchestrator's approvals (where `resume` delivers answers),
  // after the guardrails' argument scan unless the gate scans itself.
  const common = mergeExecutorOptions<undefined>(options.executorOptions, {
    model: options.executor,
    tools,
    runtime,
    sandbox: options.sandbox,
    memory: options.memory,
    safety: { gate: options.gate, approvals: options.approvals, pauseOnInterrupt: deferApprovals },
  });
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
    memories,
    planner: new Planner({
      ...options.plannerOptions,
      model: options.planner,
      invoker: invokers.planner,
      runtime,
    }),
    executor: new Executor({
      name: 'executor',
      ...common,
      resilience: { invoker: () => invokers.executor },
      instructions: options.instructions,
    }),
    takeover: new Executor({
      name: 'planner',
      ...common,
      model: options.planner,
      resilience: { invoker: () => invokers.takeover },
    }),
    verifier: invokers.verifier,
    finalizer: invokers.finalizer
      ? { invoker: invokers.finalizer }
      : { reducer: finalizer as FinalizeReducer },
    models: [...models],
  };
}

/**
 * The executors' tools: the orchestrator's, plus `delegate_to_research` when
 * `handoffs` has a research agent. A `ToolRegistry` given is used as it is
 * (never changed behind its owner's back): add the tool to it yourself.
 */
function executorTools(options: OrchestratorSettings, memories: RunMemories): ToolRegistry {
  if (options.tools instanceof ToolRegistry) return options.tools;
  const tools = new ToolRegistry(options.tools ?? []);
  const { handoffs } = options;
  if (handoffs?.has(RESEARCH_AGENT) && !tools.get('delegate_to_research')) {
    tools.register(delegateToResearchTool(handoffs, memories));
  }
  return tools;
}

/** One run's scope with the orchestrator's parts (models, settings, runtime) it runs on. */
export interface RunContext {
  scope: RunScope;
  parts: OrchestrationParts;
}

/** A {@link RunContext} with what the run was asked: what a run's modes and agents work from. */
export interface RequestRun extends RunContext {
  request: RunRequest;
}
