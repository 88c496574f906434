/**
 * How a stopped run is recorded and what it resolves with. A pause comes
 * from a step's or the simple run's execution result (`interrupted`: its
 * approvals were deferred, its tool batch finished), never from an event; a
 * stopped run is saved as `paused`, `running` (aborted or out of budget:
 * resumable) or `failed`.
 * @module
 */
import { RunError, type TandemError } from '../../core/errors.js';
import { toTandemError } from '../../core/run.js';
import type { Usage } from '../../core/usage.js';
import type { OrchestratorResult } from './options.js';
import type { RunRecorder } from './run-recorder.js';
import type { RunScope } from './run-scope.js';

/**
 * Records how a run stopped on `error` and returns what the run throws: the
 * fatal checkpoint error, the pause, or `error`. A pause also stops the
 * run's other work (parallel steps) before the state is saved.
 */
export async function stopped(
  { recorder, signal }: Pick<RunScope, 'recorder' | 'signal'>,
  error: unknown,
  abort: (reason: RunError) => void,
): Promise<unknown> {
  const pause = pauseOf(signal.reason) ?? pauseOf(error);
  if (pause && !signal.aborted) abort(pause);
  const fatal = recorder.fatal;
  if (pause) await recorder.end('paused');
  else if (signal.aborted && !fatal) await recorder.end('running');
  // The state says why the run failed, for whoever loads or replays it.
  else await recorder.end('failed', toTandemError(fatal ?? error));
  return fatal ?? pause ?? error;
}

/**
 * The result of a run its budget stopped: `partial`, with the outputs of the
 * steps completed so far, saved as `running` so that a resume (with a larger
 * budget) continues where it stopped.
 */
export async function budgetStopped(
  recorder: RunRecorder,
  error: RunError,
  usage: Usage,
): Promise<OrchestratorResult> {
  await recorder.end('running');
  const state = recorder.snapshot();
  const done = state.steps.filter((s) => s.status === 'completed' && s.output);
  return {
    output: state.output || done.map((s) => s.output).join('\n\n'),
    status: 'partial',
    complexity: state.complexity ?? 'simple',
    steps: [],
    revisions: state.revisions,
    usage: { ...usage },
    error,
  };
}

/**
 * The result of a run that failed or was aborted: the outputs of the steps
 * completed so far, and the typed error (docs/results.md).
 */
export function failedResult(recorder: RunRecorder, usage: Usage, error: TandemError): OrchestratorResult {
  const state = recorder.snapshot();
  const done = state.steps.filter((s) => s.status === 'completed' && s.output);
  return {
    output: done.map((s) => s.output).join('\n\n'),
    status: 'failed',
    complexity: state.complexity ?? 'simple',
    steps: [],
    revisions: state.revisions,
    usage: { ...usage },
    error,
  };
}

/** True for a pause: a `RunError` of kind `interrupted`. */
export function isPause(error: unknown): error is RunError {
  return pauseOf(error) !== undefined;
}

/** `error` when it is a pause (a `RunError` of kind `interrupted`). */
function pauseOf(error: unknown): RunError | undefined {
  return error instanceof RunError && error.kind === 'interrupted' ? error : undefined;
}
