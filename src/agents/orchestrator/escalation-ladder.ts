/**
 * One plan step through the escalation ladder (seed 000): a normal attempt;
 * on failure the planner writes enhanced instructions and the executor tries
 * again with them and the previous error; on a second failure the planner
 * model takes the step over; then the step is failed. Each attempt runs
 * under its own timeout (`attempt.ts`).
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import { framedMessage } from '../../core/run-input.js';
import type { ConversationState } from '../../state/run-state.js';
import type { Executor } from '../executor/index.js';
import type { Plan, Planner, PlanStep } from '../planner/index.js';
import { type AttemptMode, type AttemptOutcome, type FailedAttempt, runAttempt } from './attempt.js';
import { stepView } from './dispatch.js';
import type { StepJobResult } from './step-job.js';
import { type StepFinding, type StepPromptInput, stepSystemPrompt, stepUserMessage } from './step-prompt.js';
import { activeTaskContext } from './todo-checklist.js';

/** What the ladder needs from the orchestrator. */
export interface StepLadderDeps {
  plan: Plan;
  /** The findings the step starts with (see {@link findingsFor}). */
  findings: readonly StepFinding[];
  executor: Executor;
  /** Runs the planner model as an agent for takeovers. */
  takeover: Executor;
  planner: Planner;
  /** The run's budget, passed to every attempt. */
  budget?: BudgetCheck;
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
  /** The run's request as text, in every attempt's system prompt. */
  task?: string;
  /** The conversation a fresh attempt starts from (a step job's `conversation`). */
  conversation?: readonly Message[];
}

/** One step's climb up the ladder. */
interface Climb {
  step: PlanStep;
  /** Attempts made so far, the earlier runs' included. */
  attempts: number;
  deps: StepLadderDeps;
  /** The run's signal. */
  signal: AbortSignal;
  /** The step's emitter. */
  emit: Emitter;
  /** The planner model's work on the step (enhanced instructions, a takeover) is tagged as the planner's. */
  planner: Emitter;
  /** The step prompt's inputs every rung shares. */
  prompt: StepPromptInput;
}

/**
 * Climbs the ladder for `step`, whose earlier runs made `attempts` attempts,
 * emitting `plan_step_started` per attempt and `plan_step_failed` per failed
 * attempt, and returns how the step ended, with the attempts made in all
 * (`interrupted`: an attempt waits for a human — not a failure; the run
 * pauses and resumes that attempt). An interrupted attempt ends the climb:
 * the next rung would repeat its work. Rejects only when `signal` (the
 * run's) aborts.
 */
export async function runStepLadder(
  step: { step: PlanStep; attempts: number },
  deps: StepLadderDeps,
  signal: AbortSignal,
): Promise<StepJobResult> {
  const climb = climbOf(step, deps, signal);
  let { mode, outcome } = await firstRung(climb);
  if (climbs(outcome) && mode === 'normal') {
    mode = 'enhanced';
    outcome = await enhancedRung(climb, outcome);
  }
  if (climbs(outcome) && mode === 'enhanced') {
    mode = 'takeover';
    outcome = await takeoverRung(climb, outcome);
  }
  const { attempts } = climb;
  if (outcome.ok) {
    return { status: 'completed', output: outcome.output || '(Step completed with no output)', attempts };
  }
  const status = outcome.kind === 'interrupted' ? 'interrupted' : 'failed';
  return { status, output: outcome.output, error: outcome.error, attempts };
}

/** A failed attempt sends the step up a rung; an interrupted one waits where it is. */
function climbs(outcome: AttemptOutcome): outcome is FailedAttempt {
  return !outcome.ok && outcome.kind !== 'interrupted';
}

function climbOf(
  { step, attempts }: { step: PlanStep; attempts: number },
  deps: StepLadderDeps,
  signal: AbortSignal,
): Climb {
  const emit = deps.emit.scope({ stepId: step.id });
  return {
    step,
    attempts,
    deps,
    signal,
    emit,
    planner: emit.scope({ agent: 'planner' }),
    prompt: {
      plan: deps.plan,
      step,
      findings: deps.findings,
      maxFindingChars: deps.maxFindingChars,
      instructions: deps.instructions,
      task: deps.task,
    },
  };
}

/** The first rung: a normal attempt, or the saved attempt a resumed step continues on its rung. */
async function firstRung(climb: Climb): Promise<{ mode: AttemptMode; outcome: AttemptOutcome }> {
  const resumed = climb.deps.resume;
  if (resumed && resumed.mode !== 'direct') {
    const system = resumed.system ?? stepSystemPrompt(climb.prompt);
    return {
      mode: resumed.mode,
      outcome: await attempt(climb, { mode: resumed.mode, system, history: resumed.messages }),
    };
  }
  const user = stepUserMessage(climb.step, false);
  return {
    mode: 'normal',
    outcome: await attempt(climb, { mode: 'normal', system: stepSystemPrompt(climb.prompt), user }),
  };
}

/** The planner's enhanced instructions (none when writing them failed), and the executor again. */
async function enhancedRung(climb: Climb, failed: FailedAttempt): Promise<AttemptOutcome> {
  const { step, deps, signal } = climb;
  const enhanced = await deps.planner
    .enhanceStepInstructions(step, failed.error, failed.output, { signal, emit: climb.planner })
    .catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
  const system = stepSystemPrompt({ ...climb.prompt, enhanced, previousError: failed.error });
  return attempt(climb, { mode: 'enhanced', system, user: stepUserMessage(step, true) });
}

/** The planner model takes the step over; its failure message keeps the previous one. */
async function takeoverRung(climb: Climb, previous: FailedAttempt): Promise<AttemptOutcome> {
  const prompts = climb.deps.planner.takeoverPrompt(climb.step, previous.error);
  const system = `${prompts.system}\n\n${stepSystemPrompt(climb.prompt)}`;
  const outcome = await attempt(climb, { mode: 'takeover', system, user: prompts.user });
  if (!climbs(outcome)) return outcome;
  return { ...outcome, error: `${previous.error}\nPlanner takeover also failed: ${outcome.error}` };
}

/** An attempt on rung `mode` with its system prompt: a fresh conversation from `user`, or the saved `history` continued. */
type AttemptStart = { mode: AttemptMode; system: string } & ({ user: string } | { history: Message[] });

/** One attempt (see {@link AttemptStart}). */
async function attempt(climb: Climb, from: AttemptStart): Promise<AttemptOutcome> {
  const { step, deps, emit } = climb;
  const { mode, system } = from;
  const resumed = 'history' in from;
  const { input, history } = resumed
    ? { input: [], history: from.history }
    : freshStart(deps.conversation, from.user);
  if (!resumed) climb.attempts++;
  const stepEmit = mode === 'takeover' ? climb.planner : emit;
  const view = stepView({ step, status: 'running' });
  stepEmit.emit('plan_step_started', { step: view, attempt: climb.attempts, mode });
  let fullSystem = system;
  if (!resumed) {
    const todo = await deps.todo();
    if (todo) fullSystem = `${system}\n\n${activeTaskContext(todo)}`;
  }
  const executor = mode === 'takeover' ? deps.takeover : deps.executor;
  const outcome = await runAttempt({ executor, mode, system: fullSystem, input, history }, climb);
  if (climbs(outcome)) {
    stepEmit.emit('plan_step_failed', {
      error: { kind: outcome.kind, message: outcome.error },
      willRetry: mode !== 'takeover',
    });
  }
  return outcome;
}

/**
 * A fresh attempt's input: the step's instruction alone, or — with the
 * conversation the step starts from — that conversation, the instruction
 * added to the request's message so the model reads both as one turn.
 */
function freshStart(
  conversation: readonly Message[] | undefined,
  user: string,
): { input: Message[] | string; history: Message[] | undefined } {
  const request = conversation?.[conversation.length - 1];
  if (request?.role !== 'user') return { input: user, history: undefined };
  return {
    input: [framedMessage(request.content, '', `\n\n${user}`)],
    history: conversation!.slice(0, -1),
  };
}
