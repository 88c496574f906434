/**
 * The findings a plan step starts with, and the prompts it runs with: the
 * step's system prompt (plan summary, the step, suggested tools and files,
 * findings of the steps it depends on — of the earlier steps when it
 * declares none — and on a retry the enhanced instructions and the previous
 * error) and its user message.
 * @module
 */
import type { Plan, PlanStep } from '../planner/index.js';
import type { StepRecord } from './dispatch.js';

/** A finished step's output, handed to the steps that depend on it. */
export interface StepFinding {
  stepId: string;
  description: string;
  output: string;
}

/** Inputs of {@link stepSystemPrompt}. */
export interface StepPromptInput {
  plan: Plan;
  step: PlanStep;
  /** Findings of the steps `step` depends on or, when it declares none, of the earlier steps. */
  findings: readonly StepFinding[];
  /** Cap per finding, in characters. */
  maxFindingChars: number;
  /** The orchestrator's own instructions, placed first. */
  instructions?: string;
  /** The run's request as text: what the whole plan is for. */
  task?: string;
  /** Planner-written instructions for a retry. */
  enhanced?: string;
  /** Error of the previous attempt. */
  previousError?: string;
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
  const findings: StepFinding[] = [];
  const add = (rec: StepRecord | undefined) => {
    if (rec?.status === 'completed')
      findings.push({ stepId: rec.step.id, description: rec.step.description, output: rec.output });
  };
  if (step.dependsOn.length) {
    for (const dep of step.dependsOn) add(records.get(dep));
  } else {
    for (const rec of order) {
      if (rec.step.id === step.id) break;
      add(rec);
    }
  }
  return findings;
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n... [truncated ${text.length - max} characters]` : text;
}

/** Longest request text quoted into a step's system prompt. */
const MAX_TASK_CHARS = 2000;

const STEP_ROLE =
  'You are executing one step of a larger plan. Use the available tools to carry it out, then summarise what you found or did.';

/**
 * The system prompt of one step attempt. The plan summary stays on retries
 * (seed 000 dropped it on retry, losing the plan's context).
 */
export function stepSystemPrompt(input: StepPromptInput): string {
  const { plan, step } = input;
  // Concatenated, not joined: a join copies every finding into a new string, which the request may never need flat.
  let out = input.instructions ? `${input.instructions}\n\n` : '';
  out += STEP_ROLE;
  if (input.task) out += `\n\nThe user's request: ${cap(input.task, MAX_TASK_CHARS)}`;
  out += `\n\nPlan: ${plan.title}\nPlan summary: ${plan.summary}\n\nCurrent step (${step.id}): ${step.description}`;
  if (step.expectedOutput) out += `\nExpected output: ${step.expectedOutput}`;
  if (step.tools.length) out += `\nSuggested tools: ${step.tools.join(', ')}`;
  if (step.expectedFiles.length) out += `\nFiles: ${step.expectedFiles.join(', ')}`;
  if (input.findings.length) {
    out += step.dependsOn.length
      ? '\n\nFindings of the steps this one depends on:'
      : '\n\nFindings of earlier steps:';
    for (const f of input.findings)
      out += `\n- ${f.stepId} (${f.description}):\n${cap(f.output, input.maxFindingChars)}`;
  }
  if (input.enhanced) out += `\n\nEnhanced instructions from the planner:\n${input.enhanced}`;
  if (input.previousError) out += `\n\nPrevious attempt failed:\n${input.previousError}`;
  return out;
}

/** The user message of a step attempt. */
export function stepUserMessage(step: PlanStep, retry: boolean): string {
  return retry
    ? `Execute step: ${step.description}\n\nIMPORTANT: After using tools to gather information, you MUST provide a summary of your findings. Do not finish without explaining what you discovered.`
    : `Execute step: ${step.description}\n\nRemember to summarize your findings after gathering information.`;
}
