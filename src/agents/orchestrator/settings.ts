/**
 * The Orchestrator's options as its run reads them: the public concept
 * groups (`OrchestratorOptions`) flattened once, in the constructor, and the
 * options every executor of its runs is built with, split out.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { RunBudgetLimits } from '../../core/run-budget.js';
import type { ResilienceOptions } from '../../model/resilience/invoker-options.js';
import type { Guardrails } from '../../safety/guardrails/guardrails.js';
import type { CheckpointStore } from '../../state/checkpoint-store.js';
import { type ExecutorOptions, MOVED_ON_BOTH, rejectMovedOptions } from '../executor/index.js';
import type { PlannerOptions } from '../planner/index.js';
import type { ClassifyMode, OrchestratorModels, OrchestratorSafetyOptions } from './option-groups.js';
import type { OrchestratorOptions } from './options.js';
import type { CheckpointErrorPolicy } from './run-recorder.js';
import type { TodoStore } from './todo-checklist.js';

/** The groups and the per-executor options, replaced by their fields below. */
type Grouped =
  | 'models'
  | 'modelSettings'
  | 'stream'
  | 'reflection'
  | 'resilience'
  | 'safety'
  | 'context'
  | 'limits'
  | 'planning'
  | 'checkpoints';

/** `OrchestratorOptions` with the fields its run reads at the top, as the run reads them. */
export type OrchestratorSettings<T = any> = Omit<OrchestratorOptions<T>, Grouped> &
  OrchestratorModels &
  ResilienceOptions &
  Omit<OrchestratorSafetyOptions, 'guardrails'> & {
    /** `safety.guardrails` for the input and output stages (the tool stage is the executors'). */
    guardrails?: Guardrails;
    classify?: ClassifyMode;
    plannerOptions?: Partial<Omit<PlannerOptions, 'model' | 'invoker' | 'runtime'>>;
    todoStore?: TodoStore;
    budget?: RunBudgetLimits;
    stepConcurrency?: number;
    stepTimeoutMs?: number;
    maxReplans?: number;
    maxFindingChars?: number;
    checkpoints?: CheckpointStore;
    onCheckpointError?: CheckpointErrorPolicy;
    /** What every executor of a run is built with: the groups the Orchestrator shares with the Executor. */
    executorOptions: Partial<ExecutorOptions>;
  };

/** Where each option of the flat shape before the groups lives now. */
const MOVED: Readonly<Record<string, string>> = {
  planner: 'models.planner',
  executor: 'models.executor',
  verifier: 'models.verifier',
  finalizer: 'models.finalizer',
  ...MOVED_ON_BOTH,
  interrupts: 'safety.interrupts',
  pauseOnInterrupt: 'safety.pauseOnInterrupt',
  maxFindingChars: 'context.maxFindingChars',
  stepConcurrency: 'limits.stepConcurrency',
  stepTimeoutMs: 'limits.stepTimeoutMs',
  maxReplans: 'limits.maxReplans',
  classify: 'planning.classify',
  plannerOptions: 'planning (its fields)',
  todoStore: 'planning.todoStore',
  onCheckpointError: 'checkpoints.onError',
  executorOptions: 'the groups it held (limits, context, safety, modelSettings, stream, reflection)',
};

/**
 * The settings of `options`.
 * @throws ConfigError for an option of the flat shape before the groups, or missing models.
 */
export function orchestratorSettings<T>(options: OrchestratorOptions<T>): OrchestratorSettings<T> {
  rejectMovedOptions('Orchestrator', options, MOVED);
  if (isStore(options.checkpoints))
    throw new ConfigError('Orchestrator: `checkpoints` is `{ store, onError? }`');
  const { models, modelSettings, stream, reflection, resilience, ...rest } = options;
  const { safety = {}, context = {}, limits = {}, planning = {}, checkpoints, ...own } = rest;
  if (!models?.planner || !models.executor) {
    throw new ConfigError('Orchestrator: `models.planner` and `models.executor` are required');
  }
  const { classify, todoStore, ...plannerOptions } = planning;
  const { guardrails, ...safetyRest } = safety;
  const { maxFindingChars, ...executorContext } = context;
  const { budget, stepConcurrency, stepTimeoutMs, maxReplans, ...executorLimits } = limits;
  const executorOptions: Partial<ExecutorOptions> = {
    context: executorContext,
    limits: executorLimits,
    // The executors run the guardrails' tool stage; `false` turns their default scan off.
    safety: guardrails === undefined ? {} : { guardrails },
  };
  if (modelSettings) executorOptions.modelSettings = modelSettings;
  if (stream !== undefined) executorOptions.stream = stream;
  if (reflection) executorOptions.reflection = reflection;
  return {
    ...own,
    ...models,
    ...resilience,
    ...safetyRest,
    guardrails: guardrails || undefined,
    classify,
    todoStore,
    plannerOptions,
    budget,
    stepConcurrency,
    stepTimeoutMs,
    maxReplans,
    maxFindingChars,
    checkpoints: checkpoints?.store,
    onCheckpointError: checkpoints?.onError,
    executorOptions,
  };
}

function isStore(value: unknown): value is CheckpointStore {
  return typeof (value as CheckpointStore | undefined)?.save === 'function';
}
