/**
 * The public view of a plan step's outcome, as a run's result lists it.
 * @module
 */
import type { PlanStepView } from '../../core/events.js';
import type { StepRecord } from './dispatch.js';

/** How one plan step ended. */
export interface StepResult {
  /** The plan step's id. */
  id: string;
  /** What the step was asked to do. */
  description: string;
  /** `completed`, `failed` or `skipped`; `pending` or `running` in a run that stopped before it ended. */
  status: PlanStepView['status'];
  /** The step's findings (or the last attempt's partial output). */
  output: string;
  /** Why it failed or was skipped. */
  error?: string;
  /** Attempts made (normal, enhanced, takeover). */
  attempts: number;
}

/** The public view of the run's step records: a copy, so the result never changes after the run. */
export function stepResults(order: readonly StepRecord[]): StepResult[] {
  return order.map(({ step, status, output, error, attempts }) => {
    const result: StepResult = { id: step.id, description: step.description, status, output, attempts };
    if (error !== undefined) result.error = error;
    return result;
  });
}
