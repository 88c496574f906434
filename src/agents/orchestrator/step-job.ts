/**
 * A plan step as a self-contained job: everything a step needs (the plan,
 * the step, the findings it starts with, the checklist, a saved conversation
 * to continue) as plain JSON, and its outcome. The orchestrator runs jobs
 * in-process by default; a `stepRunner` may send them elsewhere (e.g. the
 * `tandem-agents/queue` workers), where `Orchestrator.runStep` runs them.
 * @module
 */
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { BudgetCheck } from '../../core/run-budget.js';
import type { ConversationState } from '../../state/run-state.js';
import type { Plan, PlanStep } from '../planner/index.js';
import type { StepFinding } from './step-prompt.js';

/** One step to run. Plain JSON. */
export interface StepJob {
  runId: string;
  plan: Plan;
  step: PlanStep;
  findings: StepFinding[];
  /** The checklist as of the step's start. */
  todo?: string;
  /** Attempts already made (a resumed step). */
  attempts: number;
  /** A saved attempt to continue. */
  resume?: ConversationState;
  /** The run's request as text, in every attempt's system prompt. */
  task?: string;
  /**
   * The conversation the step starts from — the earlier user and assistant
   * messages and the user's request with its images and files — for a step
   * that depends on no other; its instruction joins the request's message.
   */
  conversation?: Message[];
}

/** How a step ended. Plain JSON. */
export interface StepJobResult {
  /** `interrupted`: the step waits for a human (its conversation is saved); the run pauses. */
  status: 'completed' | 'failed' | 'interrupted';
  output: string;
  error?: string;
  attempts: number;
}

/** Where a running job reports to. */
export interface StepJobContext {
  signal: AbortSignal;
  /** The run's budget (in-process steps only): the step's executions stop when it is spent. */
  budget?: BudgetCheck;
  /** The run's emitter; step events go here. */
  emit: Emitter;
  /** Told about the attempt's conversation at every checkpoint-worthy moment. */
  onConversation?: (
    conversation: Omit<ConversationState, 'messages'>,
    messages: readonly Message[],
  ) => Promise<void>;
}

/** Runs a step job somewhere and resolves with its outcome (rejects only on abort). */
export type StepRunner = (job: StepJob, context: StepJobContext) => Promise<StepJobResult>;
