/**
 * What every phase of one orchestration run works with.
 * @module
 */
import type { EventBus } from '../../core/event-bus.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import type { RunRecorder } from './run-recorder.js';

/** One run's bus, recorder and signal, and its budget when it has one. */
export interface RunScope {
  bus: EventBus;
  recorder: RunRecorder;
  signal: AbortSignal;
  /** Asked between phases and steps, and by every execution of the run at its turns. */
  budget?: BudgetCheck;
}
