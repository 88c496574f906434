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
import type { Message } from '../core/messages.js';
import type { Clock } from '../core/seams.js';
import type { ConversationState } from '../state/run-state.js';
import type { StepRecord } from './dispatch.js';
import type { Executor } from './executor.js';
import type { Plan, PlanStep } from './plan.js';
import type { Planner } from './planner.js';
import { linkAbort } from './run.js';
import { type StepFinding, stepSystemPrompt, stepUserMessage } from './step-prompt.js';
import { activeTaskContext } from './todo.js';

/** The rung of the ladder an attempt is on. */
export type AttemptMode = 'normal' | 'enhanced' | 'takeover';

/** What the ladder needs from the orchestrator. */
export interface StepLadderDeps {
  plan: Plan;
  /** The findings the step starts with (see {@link findingsFor}). */
  findings: readonly StepFinding[];
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
  /** Told about the attempt's conversation at every checkpoint-worthy moment. */
  onConversation?: (
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ) => Promise<void>;
  /** A saved attempt to continue instead of starting the ladder afresh. */
  resume?: ConversationState;
}

type AttemptOutcome =
  | { ok: true; output: string }
  | { ok: false; error: string; kind: string; output: string };

/** The step as events show it. */
export function stepView(record: StepRecord): PlanStepView {
  const { id, description, dependsOn } = record.step;
  return { id, description, dependsOn: [...dependsOn], status: record.status };
}

/**
 * The findings `step` starts with: the outputs of the completed steps it
 * depends on or, when it declares no dependencies, of every completed step
 * before it in `order` (the plan's order; default: the order of `records`),
 * as DESIGN.md's "findings of earlier steps" and seed 000 have it.
 */
export function findingsFor(
  step: PlanStep,
  records: ReadonlyMap<string, StepRecord>,
  order: Iterable<StepRecord> = records.values(),
): StepFinding[] {
  const earlier: StepRecord[] = [];
  if (step.dependsOn.length) {
    for (const dep of step.dependsOn) {
      const rec = records.get(dep);
      if (rec) earlier.push(rec);
    }
  } else {
    for (const rec of order) {
      if (rec.step.id === step.id) break;
      earlier.push(rec);
    }
  }
  return earlier
    .filter((rec) => rec.status === 'completed')
    .map((rec) => ({ stepId: rec.step.id, description: rec.step.description, output: rec.output }));
}

/**
 * Runs `record` to `completed` or `failed`, emitting `plan_step_started` per
 * attempt and `plan_step_failed` per failed attempt. Rejects only when
 * `signal` (the run's) aborts, or with the `RunError` of kind `interrupted`
 * of an attempt that paused to ask a human: a pause is not a failure, and
 * the next rung would repeat the attempt's work.
 */
export async function runStepLadder(
  record: StepRecord,
  deps: StepLadderDeps,
  signal: AbortSignal,
): Promise<void> {
  const { step } = record;
  const emit = deps.emit.scope({ stepId: step.id });
  // The planner model's work on the step (enhanced instructions, a takeover) is tagged as the planner's.
  const planner = emit.scope({ agent: 'planner' });
  const base = {
    plan: deps.plan,
    step,
    findings: deps.findings,
    maxFindingChars: deps.maxFindingChars,
    instructions: deps.instructions,
  };
  /** One attempt: a fresh conversation from `user`, or the saved `history` continued. */
  const attempt = async (
    mode: AttemptMode,
    system: string,
    from: { user: string } | { history: Message[] },
  ): Promise<AttemptOutcome> => {
    const history = 'history' in from ? from.history : undefined;
    record.attempts += history ? 0 : 1;
    const stepEmit = mode === 'takeover' ? planner : emit;
    stepEmit.emit('plan_step_started', { step: stepView(record), attempt: record.attempts, mode });
    let fullSystem = system;
    if (!history) {
      const todo = await deps.todo();
      if (todo) fullSystem = `${system}\n\n${activeTaskContext(todo)}`;
    }
    const executor = mode === 'takeover' ? deps.takeover : deps.executor;
    const input = 'user' in from ? from.user : [];
    const outcome = await runAttempt(executor, fullSystem, input, history, deps, signal, emit, step.id, mode);
    if (!outcome.ok) {
      stepEmit.emit('plan_step_failed', {
        error: { kind: outcome.kind, message: outcome.error },
        willRetry: mode !== 'takeover',
      });
    }
    return outcome;
  };

  const resumed = deps.resume;
  let outcome: AttemptOutcome;
  let mode: AttemptMode;
  if (resumed && resumed.mode !== 'direct') {
    mode = resumed.mode;
    outcome = await attempt(mode, resumed.system ?? stepSystemPrompt(base), { history: resumed.messages });
  } else {
    mode = 'normal';
    outcome = await attempt(mode, stepSystemPrompt(base), { user: stepUserMessage(step, false) });
  }
  if (!outcome.ok && mode === 'normal') {
    const failed = outcome;
    const enhanced = await deps.planner
      .enhanceStepInstructions(step, failed.error, failed.output, { signal, emit: planner })
      .catch((error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
    mode = 'enhanced';
    outcome = await attempt(mode, stepSystemPrompt({ ...base, enhanced, previousError: failed.error }), {
      user: stepUserMessage(step, true),
    });
  }
  if (!outcome.ok && mode === 'enhanced') {
    const previous = outcome;
    const prompts = deps.planner.takeoverPrompt(step, previous.error);
    mode = 'takeover';
    outcome = await attempt(mode, `${prompts.system}\n\n${stepSystemPrompt(base)}`, {
      user: prompts.user,
    });
    if (!outcome.ok)
      outcome = { ...outcome, error: `${previous.error}\nPlanner takeover also failed: ${outcome.error}` };
  }
  if (!outcome.ok) {
    record.status = 'failed';
    record.error = outcome.error;
    record.output = outcome.output;
    return;
  }
  record.status = 'completed';
  record.output = outcome.output || '(Step completed with no output)';
  record.error = undefined;
}

async function runAttempt(
  executor: Executor,
  system: string,
  input: string | Message[],
  history: Message[] | undefined,
  deps: StepLadderDeps,
  signal: AbortSignal,
  emit: Emitter,
  stepId: string,
  mode: AttemptMode,
): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const unlink = linkAbort(signal, controller);
  let timedOut = false;
  const seconds = Math.round(deps.stepTimeoutMs / 1000);
  const cancel = deps.clock.setTimer(deps.stepTimeoutMs, () => {
    timedOut = true;
    controller.abort(new RunError('timeout', `Step timed out after ${seconds} seconds`));
  });
  const onConversation = deps.onConversation;
  try {
    const result = await executor.execute(input, {
      system,
      history,
      signal: controller.signal,
      emit,
      stepId,
      onCheckpoint: onConversation ? (messages) => onConversation({ mode, system }, messages) : undefined,
    });
    if (result.status === 'success') return { ok: true, output: result.output };
    return {
      ok: false,
      kind: result.error?.kind ?? 'incomplete',
      error: result.error?.message ?? 'The step ended without a complete answer.',
      output: result.output,
    };
  } catch (error) {
    if (signal.aborted || isPause(error)) throw error;
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

/** An attempt that paused (approvals deferred): the run stops and resumes later. */
function isPause(error: unknown): boolean {
  return error instanceof RunError && error.kind === 'interrupted';
}
