/**
 * `invoke_skill` and `list_skills` (seed 002 §80): the two tools through which
 * a model discovers and runs skills. Failures come back as JSON the model can
 * act on — the available ids, the expected parameters — never as a crash.
 * @module
 */
import { isAbortError } from '../core/errors.js';
import { lazySchema } from '../model/lazy-zod.js';
import type { ChatModel } from '../model/types.js';
import { defineTool, type Tool, type ToolRisk } from '../tools/types.js';
import { SkillError } from './errors.js';
import type { SkillRegistry } from './registry.js';

/** Options of {@link createSkillTools}. */
export interface SkillToolsOptions {
  /** Skill ids the model may see and invoke (nested invocations may use any). Default: all. */
  skills?: readonly string[];
  /** Model for the skills, over the registry's. */
  model?: ChatModel;
}

const RISK_ORDER: readonly ToolRisk[] = ['safe', 'moderate', 'risky'];

const SKILL_ID = 'Id of the skill, from list_skills';
const PARAMS = "The skill's parameters";
const CATEGORY = 'Only skills of this category';

const invokeParameters = lazySchema((z) =>
  z.object({
    skill_id: z.string().describe(SKILL_ID),
    params: z.record(z.string(), z.unknown()).default({}).describe(PARAMS),
  }),
);

const listParameters = lazySchema((z) => z.object({ category: z.string().optional().describe(CATEGORY) }));

/**
 * `invoke_skill({ skill_id, params })` and `list_skills({ category? })` over
 * `registry`. `invoke_skill` takes the highest risk of the skills it exposes,
 * so approvals gate it like its riskiest skill.
 *
 * Results (JSON, indented 2):
 * - success: `{"skill_id", "output", "success": true}`;
 * - failure: `{"error", "kind", "skill_id"}` plus `expected_parameters` and
 *   `issues` for invalid parameters, `issues` for invalid output, `path` for
 *   cycles and the depth limit; an unknown id's error lists the available ids.
 */
export function createSkillTools(registry: SkillRegistry, options: SkillToolsOptions = {}): Tool[] {
  const allowed = options.skills;
  const visibleIds = () => (allowed ? registry.ids().filter((id) => allowed.includes(id)) : registry.ids());
  const risk = registry
    .list(allowed ? { ids: allowed } : {})
    .reduce<ToolRisk>(
      (max, s) => (RISK_ORDER.indexOf(s.risk) > RISK_ORDER.indexOf(max) ? s.risk : max),
      'safe',
    );

  const invokeSkill = defineTool({
    name: 'invoke_skill',
    description:
      'Run a skill by id with its parameters. Call list_skills first to see the skills and the parameters each expects.',
    parameters: invokeParameters,
    risk,
    async execute({ skill_id, params }, ctx) {
      if (allowed && !allowed.includes(skill_id)) {
        return json({
          error: `Skill '${skill_id}' not found. Available skills: ${JSON.stringify(visibleIds())}`,
          kind: 'not_found',
          skill_id,
        });
      }
      try {
        const output = await registry.invokeDirect(skill_id, params, {
          signal: ctx.signal,
          emit: ctx.emit,
          stepId: ctx.stepId,
          agent: ctx.agent,
          sandbox: ctx.sandbox,
          model: options.model,
        });
        return json({ skill_id, output, success: true });
      } catch (error) {
        if (isAbortError(error) || !(error instanceof SkillError)) throw error;
        return json(errorPayload(error, skill_id, visibleIds()));
      }
    },
  });

  const listSkills = defineTool({
    name: 'list_skills',
    description: 'List the available skills: id, description, category and the parameters each expects.',
    parameters: listParameters,
    parallelSafe: true,
    async execute({ category }) {
      const skills = await registry.describe({ category, ids: allowed });
      if (skills.length === 0) return json({ message: 'No skills found', skills: [] });
      return json({
        skills: skills.map((s) => ({
          id: s.id,
          name: s.name,
          description: s.description,
          category: s.category,
          parameters: s.parameters,
          tags: s.tags,
        })),
        count: skills.length,
      });
    },
  });

  return [invokeSkill, listSkills];
}

function errorPayload(error: SkillError, skillId: string, visible: string[]): Record<string, unknown> {
  // A scoped tool must not reveal skills outside its scope in a nested not-found message.
  const message =
    error.kind === 'not_found' && error.skillId === skillId
      ? `Skill '${skillId}' not found. Available skills: ${JSON.stringify(visible)}`
      : error.message;
  const payload: Record<string, unknown> = { error: message, kind: error.kind, skill_id: skillId };
  if (error.skillId !== skillId) payload.failed_skill_id = error.skillId;
  if (error.expectedParameters) payload.expected_parameters = error.expectedParameters;
  if (error.issues) payload.issues = error.issues;
  if (error.path) payload.path = error.path;
  if (error.missingTools) payload.missing_tools = error.missingTools;
  return payload;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
