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

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n... [truncated ${text.length - max} characters]` : text;
}

/**
 * The system prompt of one step attempt. The plan summary stays on retries
 * (seed 000 dropped it on retry, losing the plan's context).
 */
export function stepSystemPrompt(input: StepPromptInput): string {
  const { plan, step } = input;
  const lines: string[] = [];
  if (input.instructions) lines.push(input.instructions, '');
  lines.push(
    'You are executing one step of a larger plan. Use the available tools to carry it out, then summarise what you found or did.',
    '',
    `Plan: ${plan.title}`,
    `Plan summary: ${plan.summary}`,
    '',
    `Current step (${step.id}): ${step.description}`,
  );
  if (step.expectedOutput) lines.push(`Expected output: ${step.expectedOutput}`);
  if (step.tools.length) lines.push(`Suggested tools: ${step.tools.join(', ')}`);
  if (step.expectedFiles.length) lines.push(`Files: ${step.expectedFiles.join(', ')}`);
  if (input.findings.length) {
    lines.push(
      '',
      step.dependsOn.length ? 'Findings of the steps this one depends on:' : 'Findings of earlier steps:',
    );
    for (const f of input.findings)
      lines.push(`- ${f.stepId} (${f.description}):\n${cap(f.output, input.maxFindingChars)}`);
  }
  if (input.enhanced) lines.push('', 'Enhanced instructions from the planner:', input.enhanced);
  if (input.previousError) lines.push('', `Previous attempt failed:\n${input.previousError}`);
  return lines.join('\n');
}

/** The user message of a step attempt. */
export function stepUserMessage(step: PlanStep, retry: boolean): string {
  return retry
    ? `Execute step: ${step.description}\n\nIMPORTANT: After using tools to gather information, you MUST provide a summary of your findings. Do not finish without explaining what you discovered.`
    : `Execute step: ${step.description}\n\nRemember to summarize your findings after gathering information.`;
}
