/**
 * Runs a plan's steps in dependency order: a step starts when every step it
 * depends on has completed; up to `concurrency` ready steps run at once
 * (default 1: sequential, as the seeds do). A step whose dependency failed or
 * was skipped is skipped, with the reason, and so are its own dependants.
 * @module
 */
import pLimit from 'p-limit';
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
 * earlier plan revisions that new steps may depend on. p-limit bounds how many
 * steps run at once; a slot that frees starts the first ready step in plan
 * order (not the one whose readiness queued the slot), so one slot runs the
 * steps in plan order whatever order they became ready in. A step is looked
 * at when dispatch starts and when a step it depends on completes, so a plan
 * run in order costs the same per step whatever its length.
 */
export function dispatchSteps(
  order: readonly StepRecord[],
  records: ReadonlyMap<string, StepRecord>,
  options: DispatchOptions,
): Promise<void> {
  // Saved records may already hold failed steps.
  skipBlocked(order, records, options.onSkip);
  const limit = pLimit(options.concurrency);
  const position = new Map(order.map((record, i) => [record, i]));
  const dependants = dependantsOf(order);
  const ready: StepRecord[] = [];
  let aborted = false;

  return new Promise<void>((resolve, reject) => {
    let unsettled = 0;
    const startFirstReady = async (): Promise<void> => {
      // After an abort, slots still queued end without starting a step.
      if (aborted) return;
      const record = ready.shift()!;
      record.status = 'running';
      try {
        await options.runStep(record);
      } catch (error) {
        aborted = true;
        throw error;
      }
      ended(record);
    };
    /** A step ended: its dependants are ready now, or blocked for good. */
    const ended = (record: StepRecord): void => {
      if (record.status !== 'completed') skipBlocked(order, records, options.onSkip);
      else for (const next of dependants.get(record.step.id) ?? []) if (isReady(next, records)) offer(next);
    };
    const offer = (record: StepRecord): void => {
      const after = ready.findIndex((other) => position.get(other)! > position.get(record)!);
      ready.splice(after === -1 ? ready.length : after, 0, record);
      unsettled++;
      limit(startFirstReady).then(
        () => {
          if (--unsettled === 0) resolve();
        },
        // The first abort rejects the dispatch; steps already running end on their own.
        reject,
      );
    };

    for (const record of order) if (isReady(record, records)) offer(record);
    if (unsettled === 0) resolve();
  });
}

/** The step as events show it. */
export function stepView(record: Pick<StepRecord, 'step' | 'status'>): PlanStepView {
  const { id, description, dependsOn } = record.step;
  return { id, description, dependsOn: [...dependsOn], status: record.status };
}

function isReady(record: StepRecord, records: ReadonlyMap<string, StepRecord>): boolean {
  return (
    record.status === 'pending' &&
    record.step.dependsOn.every((dep) => records.get(dep)?.status === 'completed')
  );
}

/** The pending steps of `order` by the id of each step they depend on. */
function dependantsOf(order: readonly StepRecord[]): Map<string, StepRecord[]> {
  const dependants = new Map<string, StepRecord[]>();
  for (const record of order) {
    if (record.status !== 'pending') continue;
    for (const dep of record.step.dependsOn) {
      const list = dependants.get(dep);
      if (list) list.push(record);
      else dependants.set(dep, [record]);
    }
  }
  return dependants;
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
