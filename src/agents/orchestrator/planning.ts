/**
 * The plan phase: the planner writes the plan, or a resumed run restores the
 * saved one with its step records; either way the recorder tracks it and a
 * `plan_overview` event shows it.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import { issueLines, validateSchema } from '../../model/schema.js';
import { type RunState, RunStateError } from '../../state/run-state.js';
import { type Plan, type Planner, type PlanStep, planSchema, type ToolHint } from '../planner/index.js';
import { type StepRecord, stepView } from './dispatch.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';

/** A plan and the records of its steps, as the run goes. */
export interface PlanProgress {
  plan: Plan;
  /** Every step known to the run, completed steps of earlier plans included. */
  records: Map<string, StepRecord>;
  /** The current plan's steps, in plan order. */
  order: StepRecord[];
}

/** How the planner model is asked to plan and re-plan. */
export interface PlannerCall {
  planner: Planner;
  emit: Emitter;
  /** The tools the executor has, so steps name real ones. */
  tools: ToolHint[];
}

/** Plans the request in its conversation (or restores the saved plan) and announces the plan. */
export async function planPhase(
  scope: RunScope,
  request: RunRequest,
  call: PlannerCall,
): Promise<PlanProgress> {
  const { bus, recorder } = scope;
  const progress = recorder.state.plan
    ? await restorePlan(recorder.state)
    : await writePlan(scope, request, call);
  const { plan, records, order } = progress;
  recorder.track(plan, records, order);
  bus.emit('plan_overview', { title: plan.title, summary: plan.summary, steps: order.map(stepView) });
  return progress;
}

/**
 * Records for a new or revised plan's steps: a completed step keeps its
 * result and is not run again; failed, skipped and new steps are pending.
 * (A resumed run restores its records as saved instead.)
 */
export function adopt(plan: Plan, records: Map<string, StepRecord>): StepRecord[] {
  return plan.steps.map((step) => {
    const existing = records.get(step.id);
    return existing?.status === 'completed' ? existing : fresh(step, records);
  });
}

async function writePlan(scope: RunScope, request: RunRequest, call: PlannerCall): Promise<PlanProgress> {
  const { bus, recorder, signal } = scope;
  const records = new Map<string, StepRecord>();
  const { content, history } = request;
  const plan = await stage(bus, 'planning', () =>
    call.planner.createPlan(content, undefined, { signal, emit: call.emit, tools: call.tools, history }),
  );
  const order = adopt(plan, records);
  recorder.track(plan, records, order);
  await recorder.phase('dispatching');
  return { plan, records, order };
}

/** The saved plan and step records of a resumed run. */
async function restorePlan(state: RunState): Promise<PlanProgress> {
  // States saved before a summary was required hold `summary: ''`; the title stands in for it.
  const saved = state.plan as { summary?: string; title?: string };
  const checked = await validateSchema(planSchema, {
    ...saved,
    summary: saved.summary?.trim() || saved.title,
  });
  if (!checked.success) {
    const problems = issueLines(checked.issues, 'plan').join('; ');
    throw new RunStateError('invalid_state', `The saved plan is not a valid plan: ${problems}`);
  }
  const plan = checked.data;
  const records = new Map<string, StepRecord>();
  for (const saved of state.steps) {
    const step = saved.step as unknown as PlanStep;
    // A step that was running when the state was saved continues from its saved conversation.
    const status = saved.status === 'running' ? 'pending' : saved.status;
    records.set(step.id, {
      step,
      status,
      output: saved.output,
      error: saved.error,
      attempts: saved.attempts,
    });
  }
  const order = plan.steps.map((step) => records.get(step.id) ?? fresh(step, records));
  return { plan, records, order };
}

function fresh(step: PlanStep, records: Map<string, StepRecord>): StepRecord {
  const record: StepRecord = { step, status: 'pending', output: '', attempts: 0 };
  records.set(step.id, record);
  return record;
}
