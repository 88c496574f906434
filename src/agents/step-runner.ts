/**
 * One plan step through the escalation ladder (seed 000): a normal attempt;
 * on failure the planner writes enhanced instructions and the executor tries
 * again with them and the previous error; on a second failure the planner
 * model takes the step over; then the step is failed. Every attempt has its
 * own timeout that aborts the attempt's work through its signal (the seed
 * only stopped waiting).
 * @module
 */
import { errorMessage, RunError } from '../core/errors.js';
import type { Emitter, PlanStepView } from '../core/events.js';
import type { Clock } from '../core/seams.js';
import type { StepRecord } from './dispatch.js';
import type { Executor } from './executor.js';
import type { Plan, PlanStep } from './plan.js';
import type { Planner } from './planner.js';
import { linkAbort } from './run.js';
import { type StepFinding, stepSystemPrompt, stepUserMessage } from './step-prompt.js';
import { activeTaskContext } from './todo.js';

/** What the ladder needs from the orchestrator. */
export interface StepLadderDeps {
  plan: Plan;
  records: ReadonlyMap<string, StepRecord>;
  executor: Executor;
  /** Runs the planner model as an agent for takeovers. */
  takeover: Executor;
  planner: Planner;
  clock: Clock;
  stepTimeoutMs: number;
  maxFindingChars: number;
  instructions?: string;
  /** The current checklist, if any. */
  todo: () => Promise<string | undefined>;
  emit: Emitter;
}

type AttemptMode = 'normal' | 'enhanced' | 'takeover';
type AttemptOutcome =
  | { ok: true; output: string }
  | { ok: false; error: string; kind: string; output: string };

/** The step as events show it. */
export function stepView(record: StepRecord): PlanStepView {
  const { id, description, dependsOn } = record.step;
  return { id, description, dependsOn: [...dependsOn], status: record.status };
}

function findingsFor(step: PlanStep, records: ReadonlyMap<string, StepRecord>): StepFinding[] {
  const out: StepFinding[] = [];
  for (const dep of step.dependsOn) {
    const rec = records.get(dep);
    if (rec?.status === 'completed')
      out.push({ stepId: dep, description: rec.step.description, output: rec.output });
  }
  return out;
}

/**
 * Runs `record` to `completed` or `failed`, emitting `plan_step_started` per
 * attempt and `plan_step_failed` per failed attempt. Rejects only when
 * `signal` (the run's) aborts.
 */
export async function runStepLadder(
  record: StepRecord,
  deps: StepLadderDeps,
  signal: AbortSignal,
): Promise<void> {
  const { step } = record;
  const emit = deps.emit.scope({ stepId: step.id });
  const findings = findingsFor(step, deps.records);
  const base = {
    plan: deps.plan,
    step,
    findings,
    maxFindingChars: deps.maxFindingChars,
    instructions: deps.instructions,
  };

  const attempt = async (mode: AttemptMode, system: string, user: string): Promise<AttemptOutcome> => {
    record.attempts++;
    emit.emit('plan_step_started', { step: stepView(record), attempt: record.attempts, mode });
    const todo = await deps.todo();
    const fullSystem = todo ? `${system}\n\n${activeTaskContext(todo)}` : system;
    const executor = mode === 'takeover' ? deps.takeover : deps.executor;
    const outcome = await runAttempt(executor, fullSystem, user, deps, signal, emit, step.id);
    if (!outcome.ok) {
      emit.emit('plan_step_failed', {
        error: { kind: outcome.kind, message: outcome.error },
        willRetry: mode !== 'takeover',
      });
    }
    return outcome;
  };

  let outcome = await attempt('normal', stepSystemPrompt(base), stepUserMessage(step, false));
  if (!outcome.ok) {
    const failed = outcome;
    const enhanced = await deps.planner
      .enhanceStepInstructions(step, failed.error, failed.output, { signal, emit })
      .catch((error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
    outcome = await attempt(
      'enhanced',
      stepSystemPrompt({ ...base, enhanced, previousError: failed.error }),
      stepUserMessage(step, true),
    );
  }
  if (!outcome.ok) {
    const prompts = deps.planner.takeoverPrompt(step, outcome.error);
    const takeover = await attempt(
      'takeover',
      `${prompts.system}\n\n${stepSystemPrompt(base)}`,
      prompts.user,
    );
    if (!takeover.ok) {
      record.status = 'failed';
      record.error = `${outcome.error}\nPlanner takeover also failed: ${takeover.error}`;
      record.output = takeover.output || outcome.output;
      return;
    }
    outcome = takeover;
  }
  record.status = 'completed';
  record.output = outcome.output || '(Step completed with no output)';
  record.error = undefined;
}

async function runAttempt(
  executor: Executor,
  system: string,
  user: string,
  deps: StepLadderDeps,
  signal: AbortSignal,
  emit: Emitter,
  stepId: string,
): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const unlink = linkAbort(signal, controller);
  let timedOut = false;
  const seconds = Math.round(deps.stepTimeoutMs / 1000);
  const cancel = deps.clock.setTimer(deps.stepTimeoutMs, () => {
    timedOut = true;
    controller.abort(new RunError('timeout', `Step timed out after ${seconds} seconds`));
  });
  try {
    const result = await executor.execute(user, { system, signal: controller.signal, emit, stepId });
    if (result.status === 'success') return { ok: true, output: result.output };
    return {
      ok: false,
      kind: result.error?.kind ?? 'incomplete',
      error: result.error?.message ?? 'The step ended without a complete answer.',
      output: result.output,
    };
  } catch (error) {
    if (signal.aborted) throw error;
    if (timedOut)
      return { ok: false, kind: 'timeout', error: `Step timed out after ${seconds} seconds`, output: '' };
    const kind = (error as { kind?: unknown }).kind;
    return {
      ok: false,
      kind: typeof kind === 'string' ? kind : 'internal',
      error: errorMessage(error),
      output: '',
    };
  } finally {
    cancel();
    unlink();
  }
}
