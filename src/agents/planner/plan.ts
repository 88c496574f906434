/**
 * Plans: the data a planner writes and an orchestrator runs. A plan is a DAG
 * of steps, validated by `plan-schema.ts`.
 * @module
 */
import type { PlanStepView } from '../../core/events.js';

/** How much damage a step can do: read-only, reversible edits, or deletions / migrations / production. */
export type RiskLevel = 'safe' | 'moderate' | 'risky';

/** One step of a {@link Plan}. */
export interface PlanStep {
  /** Unique within the plan; other steps name it in `dependsOn`. */
  id: string;
  /** What to do, as an instruction to the executor. */
  description: string;
  /** What the step should produce (may be empty). */
  expectedOutput: string;
  /** Tool names the planner suggests (hints; the executor is not limited to them). */
  tools: string[];
  /** Files the step is expected to read or write. */
  expectedFiles: string[];
  risk: RiskLevel;
  /** Ids of steps that must complete first. */
  dependsOn: string[];
}

/** A validated plan. Plain data: serialisable as JSON. */
export interface Plan {
  title: string;
  summary: string;
  /** In the planner's order; `dependsOn` gives the real constraints. */
  steps: PlanStep[];
  /** Present only on the one-step plan used when planning failed and `fallbackToSingleStep` is on: why it failed. */
  fallbackReason?: string;
}

/** The one-step plan that runs the whole task directly (used only with `fallbackToSingleStep`). */
export function singleStepPlan(task: string, reason: string): Plan {
  const title = task.length > 80 ? `${task.slice(0, 77)}...` : task;
  return {
    title,
    summary: task,
    steps: [
      {
        id: 'step-1',
        description: task,
        expectedOutput: '',
        tools: [],
        expectedFiles: [],
        risk: 'moderate',
        dependsOn: [],
      },
    ],
    fallbackReason: reason,
  };
}

/** The event view of a step (`plan_overview`, `plan_revised`, `plan_step_started`). */
export function planStepView(step: PlanStep, status: PlanStepView['status'] = 'pending'): PlanStepView {
  return { id: step.id, description: step.description, dependsOn: [...step.dependsOn], status };
}
