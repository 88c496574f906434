/**
 * Plan validation: {@link planSchema} reads a model's reply into a plan (at
 * least one step, unique ids, dependencies that exist and form no cycle), and
 * {@link revisionSchema} a revision's remaining steps, merged after the
 * completed ones. zod builds them when first used (`model/lazy-zod.ts`), so
 * importing the planner imports no zod.
 * @module
 */
import type { z } from 'zod/v4';
import { type LazySchema, lazySchema, type Zod, zodBuilt } from '../../model/lazy-zod.js';
import type { Plan, PlanStep } from './plan.js';

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
  // Most steps use the canonical names: they are not copied.
  if (!Object.keys(value).some((key) => Object.hasOwn(ALIASES, key))) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const canonical = ALIASES[key];
    if (canonical === undefined) out[key] = field;
    else if (!(canonical in value)) out[canonical] = field;
  }
  return out;
}

/** The plan schemas, as zod builds them. */
interface PlanSchemas {
  step: z.ZodType<PlanStep>;
  draft: z.ZodType<Plan>;
  plan: z.ZodType<Plan>;
}

function buildPlanSchemas(z: Zod): PlanSchemas {
  const text = z.union([z.string(), z.number()]).transform(String);
  const textList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(text)).default([]);
  const step = z.preprocess(
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
  const draft = z.object({
    title: z.string().trim().min(1, 'The plan needs a title'),
    // Step prompts quote the summary; an empty one is re-asked like a missing title.
    summary: z.string({ error: 'The plan needs a summary' }).trim().min(1, 'The plan needs a summary'),
    steps: z.array(step).min(1, 'The plan must have at least one step'),
  });
  const plan = draft.superRefine((plan, ctx) => {
    for (const message of planProblems(plan.steps))
      ctx.addIssue({ code: 'custom', message, path: ['steps'] });
  });
  return { step, draft, plan };
}

const schemas = zodBuilt(buildPlanSchemas);

/** One step as a model may write it: numeric ids, seed field names and a missing risk are accepted. */
export const planStepSchema: LazySchema<PlanStep> = lazySchema((z) => schemas.with(z).step);

/** A plan before the DAG checks (used to validate revisions, which are checked after merging). */
export const planDraftSchema: LazySchema<Plan> = lazySchema((z) => schemas.with(z).draft);

/** A complete plan: the draft shape plus {@link planProblems}. */
export const planSchema: LazySchema<Plan> = lazySchema((z) => schemas.with(z).plan);

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

/** The schema of a revision reply: the remaining steps, merged after the completed ones, then DAG-checked. */
export async function revisionSchema(completed: readonly PlanStep[]): Promise<z.ZodType<Plan>> {
  const done = new Map(completed.map((s) => [s.id, s]));
  const { draft } = await schemas.load();
  return draft.transform((draft, ctx) => {
    const steps = [...completed];
    for (const step of draft.steps) {
      const old = done.get(step.id);
      if (!old) steps.push(step);
      else if (old.description.trim() !== step.description.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps'],
          message: `Step "${step.id}" is already completed and cannot be redefined: leave it out, or give the new step another id.`,
        });
      }
    }
    for (const message of planProblems(steps)) ctx.addIssue({ code: 'custom', path: ['steps'], message });
    return { title: draft.title, summary: draft.summary, steps };
  });
}
