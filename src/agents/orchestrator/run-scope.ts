/**
 * What every phase of one orchestration run works with.
 * @module
 */
import type { EventBus } from '../../core/event-bus.js';
import type { RunRecorder } from './run-recorder.js';

/** One run's bus, recorder and signal. */
export interface RunScope {
  bus: EventBus;
  recorder: RunRecorder;
  signal: AbortSignal;
}
