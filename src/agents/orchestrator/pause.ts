/**
 * How a run pauses and how a stopped run is recorded. With
 * `pauseOnInterrupt`, a question to a human saves the state and stops the
 * run with a `RunError` of kind `interrupted` (a deferred approval lets its
 * tool batch finish first); a stopped run is saved as `paused`, `running`
 * (aborted: resumable) or `failed`.
 * @module
 */
import { RunError } from '../../core/errors.js';
import type { EventBus } from '../../core/event-bus.js';
import type { Usage } from '../../core/usage.js';
import { toTandemError } from '../run.js';
import type { OrchestratorResult } from './options.js';
import type { RunRecorder } from './run-recorder.js';

/** Stops the run at each question to a human, once its state is saved. */
export function pauseOnInterrupts(
  bus: EventBus,
  recorder: RunRecorder,
  defersApprovals: boolean,
  abort: (reason: RunError) => void,
): void {
  bus.on('interrupt', (e) => {
    // A deferred approval lets its batch finish; the executor then ends the step with the pause.
    if (defersApprovals && e.interrupt.kind === 'approval') return;
    void recorder
      .save()
      .then(() =>
        abort(
          new RunError(
            'interrupted',
            `Paused for "${e.interrupt.title}"; resume with orchestrator.resume(state, responses)`,
          ),
        ),
      );
  });
}

/**
 * Records how a run stopped on `error` and returns what the run throws: the
 * fatal checkpoint error, the pause, or `error`. A pause also stops the
 * run's other work (parallel steps) before the state is saved.
 */
export async function stopped(
  recorder: RunRecorder,
  signal: AbortSignal,
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

/** `error` when it is a pause (a `RunError` of kind `interrupted`). */
function pauseOf(error: unknown): RunError | undefined {
  return error instanceof RunError && error.kind === 'interrupted' ? error : undefined;
}
