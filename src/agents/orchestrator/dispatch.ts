/**
 * Runs a plan's steps in dependency order: a step starts when every step it
 * depends on has completed; up to `concurrency` ready steps run at once
 * (default 1: sequential, as the seeds do). A step whose dependency failed or
 * was skipped is skipped, with the reason, and so are its own dependants.
 * @module
 */
import type { PlanStepView } from '../../core/events.js';
import type { PlanStep } from '../planner/index.js';

/** The state of one step across attempts and plan revisions. */
export interface StepRecord {
  step: PlanStep;
  status: PlanStepView['status'];
  /** The step's findings (or the last attempt's partial output). */
  output: string;
  error?: string;
  /** Attempts made (normal, enhanced, takeover). */
  attempts: number;
}

/** Options of {@link dispatchSteps}. */
export interface DispatchOptions {
  concurrency: number;
  /** Runs one step to a final status (`completed` or `failed`); rejects only on abort. */
  runStep: (record: StepRecord) => Promise<void>;
  /** Told about each step skipped because of a dependency. */
  onSkip: (record: StepRecord, reason: string) => void;
}

/**
 * Runs every pending step of `order` (plan order) whose dependencies allow it.
 * `records` holds every step known to the run, including completed steps of
 * earlier plan revisions that new steps may depend on. Each round looks only
 * from the first step still pending, and for blocked steps only after a step
 * ended without completing, so a plan run in order costs the same per step
 * whatever its length.
 */
export async function dispatchSteps(
  order: readonly StepRecord[],
  records: ReadonlyMap<string, StepRecord>,
  options: DispatchOptions,
): Promise<void> {
  const running = new Map<string, Promise<void>>();
  // Saved records may already hold failed steps.
  let unsettled = true;
  let first = 0;
  for (;;) {
    if (unsettled) skipBlocked(order, records, options.onSkip);
    unsettled = false;
    while (first < order.length && order[first]!.status !== 'pending') first++;
    for (let i = first; i < order.length && running.size < options.concurrency; i++) {
      const record = order[i]!;
      if (record.status !== 'pending' || !ready(record, records)) continue;
      record.status = 'running';
      const id = record.step.id;
      const settled = () => {
        running.delete(id);
        if (record.status !== 'completed') unsettled = true;
      };
      running.set(id, options.runStep(record).finally(settled));
    }
    if (running.size === 0) return;
    await Promise.race(running.values());
  }
}

/** The step as events show it. */
export function stepView(record: StepRecord): PlanStepView {
  const { id, description, dependsOn } = record.step;
  return { id, description, dependsOn: [...dependsOn], status: record.status };
}

function ready(record: StepRecord, records: ReadonlyMap<string, StepRecord>): boolean {
  return record.step.dependsOn.every((dep) => records.get(dep)?.status === 'completed');
}

function skipBlocked(
  order: readonly StepRecord[],
  records: ReadonlyMap<string, StepRecord>,
  onSkip: DispatchOptions['onSkip'],
): void {
  let changed = true;
  while (changed) {
    changed = false;
    for (const record of order) {
      if (record.status !== 'pending') continue;
      for (const dep of record.step.dependsOn) {
        const status = records.get(dep)?.status;
        if (status !== 'failed' && status !== 'skipped') continue;
        record.status = 'skipped';
        record.error = `Skipped: step ${dep} it depends on ${status === 'failed' ? 'failed' : 'was skipped'}.`;
        onSkip(record, record.error);
        changed = true;
        break;
      }
    }
  }
}
