/**
 * The prompts a plan step runs with: the step's system prompt (plan summary,
 * the step, suggested tools and files, findings of the steps it depends on —
 * of the earlier steps when it declares none — and on a retry the enhanced
 * instructions and the previous error) and its user message.
 * @module
 */
import type { Plan, PlanStep } from './plan.js';

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
