/**
 * The re-plan phase, after the verifier's FAIL (at most `maxReplans` times):
 * the planner revises the plan — completed steps kept and not run again,
 * failed and new steps pending — and the revision is recorded and announced
 * with `plan_revised`.
 * @module
 */
import type { RevisionContext } from '../planner/index.js';
import { type StepRecord, stepView } from './dispatch.js';
import { adopt, type PlannerCall, type PlanProgress } from './planning.js';
import type { RunRequest } from './run-request.js';
import type { RunScope } from './run-scope.js';
import { stage } from './stage-events.js';
import type { Verification } from './verify.js';

/** A re-plan: the request and planner call it works with, the verdict that asked for it, and its number. */
export interface Replan {
  request: RunRequest;
  call: PlannerCall;
  judged: Verification;
  /** The re-plans so far, this one included. */
  revisions: number;
}

/** Revises `progress` in place after the verdict `judged`; `revisions` counts this one. */
export async function replanPhase(scope: RunScope, progress: PlanProgress, replan: Replan): Promise<void> {
  const { request, call, judged, revisions } = replan;
  const { bus, recorder, signal } = scope;
  const context = revisionContext(request.text, progress.order, judged.reason);
  const options = { signal, emit: call.emit, tools: call.tools, history: request.history };
  const plan = await stage(bus, 'replanning', () => call.planner.revise(progress.plan, context, options));
  progress.plan = plan;
  progress.order = adopt(plan, progress.records);
  recorder.track(plan, progress.records, progress.order);
  await recorder.phase('dispatching', { revisions, verification: judged });
  bus.emit('plan_revised', {
    reason: judged.reason,
    revision: revisions,
    steps: progress.order.map(stepView),
  });
}

function revisionContext(task: string, order: readonly StepRecord[], reason: string): RevisionContext {
  return {
    reason: `The verifier judged the result a FAIL: ${reason}`,
    task,
    completed: order
      .filter((r) => r.status === 'completed')
      .map((r) => ({ id: r.step.id, output: r.output })),
    failed: order
      .filter((r) => r.status !== 'completed')
      .map((r) => ({ id: r.step.id, error: r.error ?? `Step ${r.status}.` })),
  };
}
