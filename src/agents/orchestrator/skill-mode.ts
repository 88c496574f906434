/**
 * A dedicated skill mode's one invocation (`mode: 'app'` runs the
 * `app_builder` skill with the task). It runs as an `invoke_skill` tool call
 * through the tool runner, so the orchestrator's gate — the guardrail scan,
 * then the approval — decides on it exactly as on the `invoke_skill` call a
 * model makes: the same question, the same "approve always" scope
 * (`invoke_skill:<skill id>`), the same refusal.
 * @module
 */
import { AbortError, RunError } from '../../core/errors.js';
import { SKILL_TOOL_NAME } from '../../safety/approvals/approval-gate.js';
import { jsonSchema } from '../../tools/json-schema.js';
import { type ReadyToolCall, ToolRunner } from '../../tools/runner.js';
import { defineTool } from '../../tools/types.js';
import type { RequestRun } from './collaborators.js';
import { defersApprovals } from './collaborators.js';
import type { DirectSkills, SkillMode } from './options.js';

const PARAMETERS = jsonSchema({
  type: 'object',
  properties: { skill_id: { type: 'string' }, params: { type: 'object' } },
  required: ['skill_id'],
});

/** What the gate let happen: the skill's output, or the gate's refusal. */
export type SkillModeOutcome = { ran: true; output: unknown } | { ran: false; refusal: string };

/**
 * Invokes `chosen` with the run's request (as text) through the orchestrator's gate.
 * @throws RunError `interrupted` when the approval is deferred (a run that
 *   pauses to ask): resume with the answer and the same `mode`.
 * @throws whatever the skill throws.
 */
export async function invokeSkillMode(run: RequestRun, chosen: SkillMode): Promise<SkillModeOutcome> {
  const { scope } = run;
  const { options, runtime } = run.parts;
  const task = run.request.text;
  const skills = options.skills as DirectSkills;
  const params = { [chosen.param]: task };
  let result: { output: unknown } | { error: unknown } | undefined;
  const tool = defineTool({
    name: SKILL_TOOL_NAME,
    description: `Run the skill ${chosen.skill}`,
    parameters: PARAMETERS,
    risk: skills.get?.(chosen.skill)?.risk ?? 'risky',
    async execute(_args, ctx) {
      try {
        const output = await skills.invokeDirect(chosen.skill, params, {
          signal: ctx.signal,
          emit: ctx.emit,
          sandbox: options.sandbox,
        });
        result = { output };
        return typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
      } catch (error) {
        result = { error };
        throw error;
      }
    },
  });
  const { bus, signal } = scope;
  // The same id on a resume of this run, so the answer given meanwhile finds the call.
  const id = `mode_${bus.runId}`;
  const args = { skill_id: chosen.skill, params };
  const call = { type: 'tool_call' as const, id, name: SKILL_TOOL_NAME, arguments: JSON.stringify(args) };
  const ready: ReadyToolCall = { status: 'ready', call, tool, args };
  const [outcome] = await new ToolRunner({ clock: runtime.clock }).run([ready], {
    signal,
    emit: bus,
    runId: bus.runId,
    sandbox: options.sandbox,
    gate: options.gate ?? options.approvals?.gate,
    deferApprovals: defersApprovals(options),
  });
  if (signal.aborted) throw new AbortError(signal.reason);
  if (outcome!.deferred) {
    throw new RunError('interrupted', `Paused for approval of skill ${chosen.skill}; resume with the answer`);
  }
  if (result && 'error' in result) throw result.error;
  return result ? { ran: true, output: result.output } : { ran: false, refusal: outcome!.output };
}
