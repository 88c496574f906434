/**
 * The planner's system prompts. Each is replaceable through the `prompts`
 * option; the defaults follow the seeds' wording and demand raw JSON
 * where a structured reply is parsed.
 * @module
 */
import type { Plan, PlanStep } from './plan.js';

/** A tool the planner may name in `tools` of a step. */
export interface ToolHint {
  name: string;
  description?: string;
}

/** Input of {@link PlannerPrompts.createPlan}. */
export interface PlanPromptInput {
  /** Background the orchestrator has (conversation, workspace, earlier findings). */
  context?: string;
  tools?: readonly ToolHint[];
}

/** Input of {@link PlannerPrompts.enhance}. */
export interface EnhancePromptInput {
  step: PlanStep;
  error: string;
  /** What the failed attempt produced (already cut to {@link MAX_PROMPT_OUTPUT_CHARS}). */
  output: string;
}

/** Input of {@link PlannerPrompts.takeover}. */
export interface TakeoverPromptInput {
  step: PlanStep;
  error: string;
  context?: string;
}

/** The result of a step, as a revision reports it. */
export interface StepOutcome {
  id: string;
  /** What the step produced (completed steps). */
  output?: string;
  /** Why the step failed (failed steps). */
  error?: string;
}

/** Input of {@link PlannerPrompts.revise}. */
export interface RevisePromptInput {
  plan: Plan;
  reason: string;
  completed: readonly StepOutcome[];
  failed: readonly StepOutcome[];
  tools?: readonly ToolHint[];
}

/** Every system prompt the planner sends. */
export interface PlannerPrompts {
  /** decide(): reply `{"needsPlan": boolean, "reasoning": string}`. */
  decide: string;
  /** createPlan(): reply a plan object. */
  createPlan(input: PlanPromptInput): string;
  /** enhanceStepInstructions(): reply plain text. */
  enhance(input: EnhancePromptInput): string;
  /** takeoverPrompt(): the system prompt of the planner model executing a step itself. */
  takeover(input: TakeoverPromptInput): string;
  /** revise(): reply a plan object holding the steps still to run. */
  revise(input: RevisePromptInput): string;
}

/** Longest step output or error quoted into a prompt; longer text keeps its head and tail. */
export const MAX_PROMPT_OUTPUT_CHARS = 4000;

const DECIDE = `You decide whether a task needs a multi-step plan or can be executed directly.

Respond ONLY with JSON, no other text:
{"needsPlan": boolean, "reasoning": "one short sentence"}

needsPlan: true for
- processes of 3 or more distinct actions that must be coordinated
- research or analysis (finding patterns, understanding a system, reviews)
- changes across 3 or more files, refactorings, project-wide questions
- architecture or design work, migrations, infrastructure changes

needsPlan: false for
- edits to 1-2 files, small bug fixes, renames, documentation updates
- simple questions, explanations of a given piece of code
- a single command`;

const PLAN_FORMAT = `Respond ONLY with JSON, no other text:
{
  "title": "short title",
  "summary": "what the plan achieves, in one or two sentences",
  "steps": [
    {
      "id": "short-unique-id",
      "description": "one actionable instruction for the executor",
      "expectedOutput": "what the step produces",
      "tools": ["tool_name"],
      "expectedFiles": ["path/to/file"],
      "risk": "safe | moderate | risky",
      "dependsOn": ["id of a step that must finish first"]
    }
  ]
}

Rules:
- 2 to 6 steps is typical; every step must be self-contained and verifiable.
- ids are unique; dependsOn names only ids of this plan and never forms a cycle.
- Steps without dependencies between them may run in parallel.
- risk: "safe" = read-only; "moderate" = reversible edits; "risky" = deletions, migrations, production changes.`;

function toolList(tools: readonly ToolHint[] | undefined): string {
  if (!tools?.length) return '';
  const lines = tools.map((t) => (t.description ? `- ${t.name}: ${t.description}` : `- ${t.name}`));
  return `\n\nAvailable tools (name them in "tools"):\n${lines.join('\n')}`;
}

/** `text` cut to `max` characters, keeping its head and tail. */
export function clip(text: string, max = MAX_PROMPT_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.6);
  const tail = max - head;
  return `${text.slice(0, head)}\n... [${text.length - max} characters omitted] ...\n${text.slice(-tail)}`;
}

function stepBlock(step: PlanStep): string {
  const lines = [`Step: ${step.description}`];
  if (step.expectedOutput) lines.push(`Expected output: ${step.expectedOutput}`);
  if (step.tools.length) lines.push(`Tools: ${step.tools.join(', ')}`);
  if (step.expectedFiles.length) lines.push(`Files: ${step.expectedFiles.join(', ')}`);
  return lines.join('\n');
}

function createPlan(input: PlanPromptInput): string {
  const context = input.context?.trim() ? `\n\nContext:\n${input.context.trim()}` : '';
  return `You are a planner. Break the user's task into a plan of concrete steps that an executor with tools will carry out one by one.

${PLAN_FORMAT}${toolList(input.tools)}${context}`;
}

function enhance(input: EnhancePromptInput): string {
  const output = input.output.trim() ? clip(input.output.trim()) : '(none)';
  return `You are a planner helping an executor that failed a step. Write improved, concrete instructions so that the next attempt succeeds: say what went wrong, what to do differently, and which tools or approaches to use. Reply with the instructions only, as plain text.

${stepBlock(input.step)}

Error:
${clip(input.error)}

Output of the failed attempt:
${output}`;
}

function takeover(input: TakeoverPromptInput): string {
  const context = input.context?.trim() ? `\n\nContext:\n${input.context.trim()}` : '';
  return `You are taking over execution of a step that the executor failed to complete.

${stepBlock(input.step)}
Executor's error: ${clip(input.error)}${context}

Execute this step directly using the available tools. Be thorough and handle edge cases. When done, summarise what you did and what you found.`;
}

function revise(input: RevisePromptInput): string {
  const completed = new Set(input.completed.map((o) => o.id));
  const failed = new Map(input.failed.map((o) => [o.id, o]));
  const lines = input.plan.steps.map((step) => {
    const deps = step.dependsOn.length ? ` (after ${step.dependsOn.join(', ')})` : '';
    const status = completed.has(step.id) ? 'completed' : failed.has(step.id) ? 'failed' : 'not run';
    return `- [${status}] ${step.id}: ${step.description}${deps}`;
  });
  const results = input.completed.map((o) => `- ${o.id}: ${clip(o.output?.trim() || '(no output)', 1000)}`);
  const errors = input.failed.map((o) => `- ${o.id}: ${clip(o.error?.trim() || '(no error text)', 1000)}`);
  return `You are a planner revising a plan that is partly executed.

Current plan "${input.plan.title}": ${input.plan.summary}
${lines.join('\n')}
${results.length ? `\nResults of completed steps:\n${results.join('\n')}\n` : ''}${errors.length ? `\nErrors of failed steps:\n${errors.join('\n')}\n` : ''}
Why the plan must change:
${input.reason.trim()}

Write the steps that remain to be run. Completed steps are done and will not run again: leave them out, but you may name their ids in dependsOn. You may keep a failed or not-run step (same id), change it, replace it or drop it, and add new steps with new ids.

${PLAN_FORMAT}${toolList(input.tools)}`;
}

/** The default planner prompts. */
export const defaultPlannerPrompts: PlannerPrompts = {
  decide: DECIDE,
  createPlan,
  enhance,
  takeover,
  revise,
};
