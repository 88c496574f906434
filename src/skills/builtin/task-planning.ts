/**
 * `task_planning` (seed 002): the Planner as a skill. It returns a validated
 * plan (a DAG of steps) and executes nothing: one planner call, re-asked on
 * an invalid plan, and no executor.
 * @module
 */
import { z } from 'zod/v4';
import { type Plan, Planner } from '../../agents/index.js';
import { defineSkill } from '../define-skill.js';
import { SkillError } from '../errors.js';
import { skillStage } from '../research/pipeline.js';

/** `task_planning`: a validated plan for `task`, not executed. */
export const taskPlanningSkill = defineSkill({
  id: 'task_planning',
  name: 'Task planning',
  description:
    'Break a complex task into a validated plan of steps (ids, dependencies, tools, risk) without executing it',
  category: 'automation',
  tags: ['planning', 'dag'],
  parameters: z.object({
    task: z.string().trim().min(1).describe('The task to plan'),
    context: z.string().optional().describe('What the planner should know: files, constraints, findings'),
    tools: z
      .array(z.string())
      .optional()
      .describe('Tool names the steps may use; default: the tools available to skills'),
  }),
  // The planner has validated the plan.
  output: z.object({ task: z.string(), plan: z.custom<Plan>(), stepCount: z.number().int() }),
  async run({ task, context, tools }, ctx) {
    if (!ctx.invoker) {
      throw new SkillError(
        'no_model',
        `Skill '${ctx.skillId}' needs a model for planning, and none is configured`,
        {
          skillId: ctx.skillId,
        },
      );
    }
    const planner = new Planner({ model: ctx.invoker.model, invoker: ctx.invoker, runtime: ctx.runtime });
    const names = tools ?? ctx.tools.names();
    const hints = names.map((name) => ({ name, description: ctx.tools.get(name)?.description }));
    const plan = await skillStage(ctx, { name: 'plan' }, () =>
      planner.createPlan(task, context, { signal: ctx.signal, emit: ctx.emit, tools: hints }),
    );
    return { task, plan, stepCount: plan.steps.length };
  },
});
