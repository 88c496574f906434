/**
 * Scorers on what a run did, read from its recorded events: the tool
 * trajectory, the plan's shape, and the budget it spent.
 * @module
 */
import type { PlanStepView, TandemEvent } from '../../core/events.js';
import { totalTokens } from '../../core/usage.js';
import type { Score, Scorer } from '../types.js';

/** A tool the run should call: its name, and arguments that must be a subset of the call's. */
export interface ExpectedToolCall {
  name: string;
  args?: Record<string, unknown>;
}

/** Options of {@link toolTrajectory}. */
export interface ToolTrajectoryOptions {
  name?: string;
  /** Calls that must appear in this order (other calls may come between). */
  expected?: (string | ExpectedToolCall)[];
  /** Tools that must never be called: any call scores 0. */
  forbidden?: string[];
}

/** Whether `subset`'s fields all appear in `value`, recursively (arrays compared whole). */
export function isSubset(subset: unknown, value: unknown): boolean {
  if (subset === null || typeof subset !== 'object' || Array.isArray(subset))
    return JSON.stringify(subset) === JSON.stringify(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(subset).every(([k, v]) => isSubset(v, (value as Record<string, unknown>)[k]));
}

function toolCalls(events: readonly TandemEvent[]) {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e as TandemEvent<'tool_call'>] : []));
}

/**
 * Scores the tool calls of the recorded run: the share of `expected` calls
 * found in order (each matching by name and argument subset), 0 when a
 * `forbidden` tool was called.
 */
export function toolTrajectory(options: ToolTrajectoryOptions): Scorer {
  const expected = (options.expected ?? []).map((e) => (typeof e === 'string' ? { name: e } : e));
  return {
    name: options.name ?? 'trajectory',
    score: ({ events }) => {
      const calls = toolCalls(events);
      const bad = calls.filter((c) => options.forbidden?.includes(c.name));
      if (bad.length) return { score: 0, reason: `called forbidden tool ${bad[0]!.name}` };
      let at = 0;
      let found = 0;
      for (const want of expected) {
        const i = calls.findIndex(
          (c, j) =>
            j >= at && c.name === want.name && (want.args === undefined || isSubset(want.args, c.args)),
        );
        if (i < 0) {
          const names = calls.map((c) => c.name).join(', ') || 'none';
          return {
            score: found / expected.length,
            reason: `missing ${want.name} in order (calls: ${names})`,
          };
        }
        found++;
        at = i + 1;
      }
      return { score: 1, reason: `${calls.length} tool calls, expected ones in order` };
    },
  };
}

/** Options of {@link planShape}. */
export interface PlanShapeOptions {
  name?: string;
  minSteps?: number;
  maxSteps?: number;
}

/** The last plan of the run (a revision replaces the overview's). */
function lastPlan(events: readonly TandemEvent[]): PlanStepView[] | undefined {
  let steps: PlanStepView[] | undefined;
  for (const e of events)
    if (e.type === 'plan_overview' || e.type === 'plan_revised')
      steps = (e as TandemEvent<'plan_overview'>).steps;
  return steps;
}

/**
 * Scores the plan in the recorded events (the last `plan_overview` or
 * `plan_revised`): step count within bounds, every dependency names an
 * earlier step, no step described twice. The score is the share of checks
 * passed; a run without a plan scores 0.
 */
export function planShape(options: PlanShapeOptions = {}): Scorer {
  return {
    name: options.name ?? 'plan',
    score: ({ events }): Score => {
      const steps = lastPlan(events);
      if (!steps) return { score: 0, reason: 'no plan in the events' };
      const problems: string[] = [];
      const n = steps.length;
      if (n < (options.minSteps ?? 1) || n > (options.maxSteps ?? Number.POSITIVE_INFINITY))
        problems.push(`${n} steps, outside ${options.minSteps ?? 1}–${options.maxSteps ?? '∞'}`);
      const seen = new Set<string>();
      const unknown = steps.flatMap((s) => {
        const missing = s.dependsOn.filter((d) => !seen.has(d));
        seen.add(s.id);
        return missing.map((d) => `${s.id} → ${d}`);
      });
      if (unknown.length) problems.push(`dependencies not on an earlier step: ${unknown.join(', ')}`);
      const descriptions = steps.map((s) => s.description.trim().toLowerCase());
      const repeated = descriptions.filter((d, i) => descriptions.indexOf(d) !== i);
      if (repeated.length) problems.push(`repeated step: ${repeated[0]}`);
      return { score: (3 - problems.length) / 3, reason: problems.join('; ') || `${n} steps, well formed` };
    },
  };
}

/** Options of {@link budget}: limits a trial must stay within. */
export interface BudgetOptions {
  name?: string;
  maxTokens?: number;
  maxCostUsd?: number;
  maxLatencyMs?: number;
}

/** 1 when the trial stayed within every limit, else 0 naming the one crossed. */
export function budget(options: BudgetOptions): Scorer {
  return {
    name: options.name ?? 'budget',
    score: ({ usage, latencyMs }) => {
      const over: string[] = [];
      const tokens = usage ? totalTokens(usage) : 0;
      if (options.maxTokens !== undefined && tokens > options.maxTokens)
        over.push(`${tokens} tokens > ${options.maxTokens}`);
      if (options.maxCostUsd !== undefined) {
        if (usage?.costUsd === undefined) over.push('cost unknown (no prices)');
        else if (usage.costUsd > options.maxCostUsd) over.push(`$${usage.costUsd} > $${options.maxCostUsd}`);
      }
      if (options.maxLatencyMs !== undefined && latencyMs > options.maxLatencyMs)
        over.push(`${latencyMs} ms > ${options.maxLatencyMs} ms`);
      return { score: over.length ? 0 : 1, reason: over.join('; ') || 'within budget' };
    },
  };
}
