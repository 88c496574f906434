/**
 * Plans: the data a planner writes and an orchestrator runs. A plan is a DAG
 * of steps; {@link planSchema} validates a model's reply into one (at least
 * one step, unique ids, dependencies that exist and form no cycle).
 * @module
 */
import { z } from 'zod/v4';
import { TandemError } from '../core/errors.js';
import type { PlanStepView } from '../core/events.js';
import { emptyUsage, type Usage } from '../core/usage.js';

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

/** Why planning failed. */
export type PlanErrorKind = 'decision_failed' | 'invalid_plan' | 'model_failed' | 'enhance_failed';

/**
 * A planner operation that did not produce a result: `decision_failed`
 * (decide), `invalid_plan` (createPlan / revise got replies, none valid),
 * `model_failed` (createPlan / revise: the model call itself failed),
 * `enhance_failed` (enhanceStepInstructions). `cause` holds the underlying
 * error (a `StructuredOutputError` or `ModelError`). Aborts are never a
 * PlanError: they surface as `AbortError`.
 */
export class PlanError extends TandemError<PlanErrorKind> {
  static override readonly brand: string = 'PlanError';

  /** Model calls made. */
  readonly attempts: number;
  /** The last raw reply, when there was one. */
  readonly lastReply?: string;
  /** Tokens spent on the failed operation. */
  readonly usage: Usage;
  constructor(
    kind: PlanErrorKind,
    message: string,
    options: { cause?: unknown; attempts?: number; lastReply?: string; usage?: Usage } = {},
  ) {
    super(kind, message, { cause: options.cause });
    this.attempts = options.attempts ?? 0;
    this.lastReply = options.lastReply;
    this.usage = options.usage ?? emptyUsage();
  }
}

// Names other planners (and the seeds) use for the same fields; models trained on them write them.
const ALIASES: Readonly<Record<string, keyof PlanStep>> = {
  stepId: 'id',
  step_id: 'id',
  goal: 'description',
  expected_output: 'expectedOutput',
  toolsToUse: 'tools',
  tools_hint: 'tools',
  expected_files: 'expectedFiles',
  riskLevel: 'risk',
  risk_level: 'risk',
  dependencies: 'dependsOn',
  depends_on: 'dependsOn',
};

function canonicalKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const canonical = ALIASES[key];
    if (canonical === undefined) out[key] = field;
    else if (!(canonical in value)) out[canonical] = field;
  }
  return out;
}

const text = z.union([z.string(), z.number()]).transform(String);
const textList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(text)).default([]);

/** One step as a model may write it: numeric ids, seed field names and a missing risk are accepted. */
export const planStepSchema: z.ZodType<PlanStep> = z.preprocess(
  canonicalKeys,
  z.object({
    id: text.pipe(z.string().trim().min(1, 'Step id must not be empty')),
    description: z.string().trim().min(1, 'Step description must not be empty'),
    expectedOutput: z.string().default(''),
    tools: textList,
    expectedFiles: textList,
    // An unstated risk must not pass an approval gate as "safe".
    risk: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
        z.enum(['safe', 'moderate', 'risky']),
      )
      .default('moderate'),
    dependsOn: textList,
  }),
);

/** A plan before the DAG checks (used to validate revisions, which are checked after merging). */
export const planDraftSchema = z.object({
  title: z.string().trim().min(1, 'The plan needs a title'),
  // Step prompts quote the summary; an empty one is re-asked like a missing title.
  summary: z.string({ error: 'The plan needs a summary' }).trim().min(1, 'The plan needs a summary'),
  steps: z.array(planStepSchema).min(1, 'The plan must have at least one step'),
});

/** A complete plan: the draft shape plus {@link planProblems}. */
export const planSchema: z.ZodType<Plan> = planDraftSchema.superRefine((plan, ctx) => {
  for (const message of planProblems(plan.steps)) ctx.addIssue({ code: 'custom', message, path: ['steps'] });
});

/**
 * What is wrong with a list of steps as a DAG, as sentences a model can act
 * on: duplicate ids, dependencies on unknown steps, and dependency cycles
 * (a step depending on itself included). Empty when the steps are valid.
 */
export function planProblems(steps: readonly PlanStep[]): string[] {
  const problems: string[] = [];
  const byId = new Map<string, PlanStep>();
  for (const step of steps) {
    if (byId.has(step.id)) problems.push(`Duplicate step id "${step.id}": every step needs its own id.`);
    else byId.set(step.id, step);
  }
  for (const step of steps) {
    for (const dep of step.dependsOn) {
      if (!byId.has(dep))
        problems.push(`Step "${step.id}" depends on "${dep}", which is not a step of the plan.`);
    }
  }
  const cycle = findCycle(byId);
  if (cycle) problems.push(`Dependency cycle: ${cycle.join(' -> ')}. Dependencies must not form a cycle.`);
  return problems;
}

/** The first dependency cycle found, as ids ending where they started. */
function findCycle(byId: ReadonlyMap<string, PlanStep>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const seen = state.get(id);
    if (seen === 'done') return undefined;
    if (seen === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(dep)) continue;
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of byId.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
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
