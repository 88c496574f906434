/**
 * The Executor's options as its loop reads them: the public concept groups
 * (`ExecutorOptions`) flattened once, in the constructor, so the loop reads
 * one field per setting and never walks the groups per turn.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { ResilienceOptions } from '../../model/resilience/invoker-options.js';
import type { ToolOutputFilter } from '../../tools/runner.js';
import type {
  ContextOptions,
  ConversationContext,
  LimitOptions,
  ModelSettings,
  SafetyOptions,
} from './option-groups.js';
import {
  DEFAULT_EXECUTOR_TIMEOUT_MS,
  DEFAULT_MAX_ITERATIONS,
  type ExecutorLimits,
  type ExecutorOptions,
} from './options.js';
import { resolveReflection } from './reflection.js';
import { DEFAULT_OUTPUT_REASKS } from './structured-output.js';

/** The option groups; every other option of `ExecutorOptions` is read as given. */
const GROUPS = ['modelSettings', 'resilience', 'safety', 'context', 'limits'] as const;

type Grouped = (typeof GROUPS)[number];

/** `ExecutorOptions` with its groups' fields at the top, as the loop reads them. */
export type ExecutorSettings<T = any> = Omit<ExecutorOptions<T>, Grouped> &
  ModelSettings &
  ResilienceOptions &
  LimitOptions &
  Omit<SafetyOptions, 'pauseOnInterrupt'> &
  Omit<ContextOptions, 'manager'> & {
    /** `context.manager`. */
    context?: (() => ConversationContext) | false;
    /** `safety.pauseOnInterrupt`: approvals are deferred, the execution ends `interrupted`. */
    deferApprovals?: boolean;
    /** Screens tool outputs before the model reads them: the tool-output stage of `safety.guardrails`. */
    outputFilter?: ToolOutputFilter;
  };

/** The flat options both classes had, and the group each lives in now. */
export const MOVED_ON_BOTH: Readonly<Record<string, string>> = {
  temperature: 'modelSettings.temperature',
  retry: 'resilience.retry',
  fallbacks: 'resilience.fallbacks',
  invoker: 'resilience.invoker',
  guardrails: 'safety.guardrails',
  approvals: 'safety.approvals',
  gate: 'safety.gate',
  budget: 'limits.budget',
};

/**
 * Where each option of the flat shape before the groups lives now: a
 * JavaScript caller passing one gets an error naming the new place rather
 * than a silently ignored option.
 */
const MOVED: Readonly<Record<string, string>> = {
  ...MOVED_ON_BOTH,
  maxOutputTokens: 'modelSettings.maxOutputTokens',
  deferApprovals: 'safety.pauseOnInterrupt',
  outputFilter: 'safety.guardrails (its tool-output stage)',
  prepareRequest: 'context.prepareRequest',
  maxOutputChars: 'context.maxOutputChars',
  maxIterations: 'limits.maxIterations',
  tier: 'limits.maxIterations (flash 3, pro 5, max 10)',
  timeoutMs: 'limits.timeoutMs',
  toolConcurrency: 'limits.toolConcurrency',
  toolLimiter: 'limits.toolLimiter',
  maxLengthContinuations: 'limits.maxLengthContinuations',
  maxInvalidToolTurns: 'limits.maxInvalidToolTurns',
  maxOutputReasks: 'limits.maxOutputReasks',
};

/**
 * Throws for an option of the flat shape before the groups.
 * @throws ConfigError naming the option's place in the groups.
 */
export function rejectMovedOptions(owner: string, options: object, moved = MOVED): void {
  for (const key of Object.keys(options)) {
    const to = moved[key];
    if (to !== undefined) throw new ConfigError(`${owner}: \`${key}\` moved to \`${to}\``);
  }
  const context = (options as { context?: unknown }).context;
  if (typeof context === 'function')
    throw new ConfigError(`${owner}: \`context\` moved to \`context.manager\``);
}

/**
 * The settings of `options`: the groups' fields at the top level,
 * `safety.guardrails` also screening tool outputs.
 * @throws ConfigError for an option of the flat shape before the groups.
 */
export function executorSettings<T>(options: ExecutorOptions<T>): ExecutorSettings<T> {
  rejectMovedOptions('Executor', options);
  const { modelSettings, resilience, safety, context, limits, ...rest } = options;
  const { manager, ...contextRest } = context ?? {};
  const { pauseOnInterrupt, ...safetyRest } = safety ?? {};
  const settings: ExecutorSettings<T> = {
    ...rest,
    ...modelSettings,
    ...resilience,
    ...safetyRest,
    ...contextRest,
    ...limits,
  };
  if (manager !== undefined) settings.context = manager;
  if (pauseOnInterrupt) settings.deferApprovals = true;
  if (safety?.guardrails) settings.outputFilter = safety.guardrails.outputFilter();
  return settings;
}

/**
 * `base` with `over` on top, group by group: an agent's options over the
 * ones its parent shares (an orchestrator's, a handoff manager's). An
 * `undefined` in `over` leaves `base`'s value.
 */
export function mergeExecutorOptions<T>(
  base: Partial<ExecutorOptions> | undefined,
  over: ExecutorOptions<T>,
): ExecutorOptions<T> {
  const merged: Record<string, unknown> = { ...base, ...defined(over) };
  for (const group of GROUPS) {
    const a = base?.[group];
    const b = over[group];
    if (b) merged[group] = { ...a, ...defined(b) };
  }
  return merged as unknown as ExecutorOptions<T>;
}

function defined(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/**
 * Applies defaults and validates the limits.
 * @throws ConfigError for a missing model, a limit out of range or invalid `reflection` options.
 */
export function resolveLimits<T>(settings: ExecutorSettings<T>): ExecutorLimits {
  if (!settings?.model) throw new ConfigError('Executor: `model` is required');
  const limits: ExecutorLimits = {
    maxIterations: settings.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    timeoutMs: settings.timeoutMs ?? DEFAULT_EXECUTOR_TIMEOUT_MS,
    maxLengthContinuations: settings.maxLengthContinuations ?? 2,
    maxInvalidToolTurns: settings.maxInvalidToolTurns ?? 3,
    maxOutputReasks: settings.maxOutputReasks ?? DEFAULT_OUTPUT_REASKS,
  };
  requireInteger('maxIterations', limits.maxIterations, 1);
  requireInteger('maxLengthContinuations', limits.maxLengthContinuations, 0);
  requireInteger('maxInvalidToolTurns', limits.maxInvalidToolTurns, 1);
  requireInteger('maxOutputReasks', limits.maxOutputReasks, 0);
  if (!(limits.timeoutMs > 0))
    throw new ConfigError('Executor: `limits.timeoutMs` must be a positive number');
  if (settings.reflection) limits.reflection = resolveReflection(settings.reflection);
  return limits;
}

function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`Executor: \`limits.${name}\` must be an integer ≥ ${min}, got ${value}`);
  }
}
