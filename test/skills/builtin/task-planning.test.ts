import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelRequest } from '../../../src/model/types.js';
import { taskPlanningSkill } from '../../../src/skills/builtin/index.js';
import { SkillError, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { defineTool } from '../../../src/tools/types.js';
import { recorder } from '../helpers.js';

const deployed: string[] = [];
const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy a service to production',
  parameters: z.object({ service: z.string() }),
  risk: 'risky',
  execute: ({ service }) => {
    deployed.push(service);
    return 'deployed';
  },
});

const plan = {
  title: 'Ship the billing service',
  summary: 'Test, then deploy billing',
  steps: [
    { id: 'test', description: 'Run the billing tests', tools: [], risk: 'safe' },
    { id: 'ship', description: 'Deploy billing', tools: ['deploy'], risk: 'risky', dependsOn: ['test'] },
  ],
};

const systemOf = (request: ModelRequest) => String(request.system);

type PlanOut = {
  task: string;
  stepCount: number;
  plan: { title: string; steps: { id: string; dependsOn: string[] }[] };
};

describe('task_planning', () => {
  it('returns a validated plan from one planner call, and executes nothing', async () => {
    const model = new ScriptedModel([
      (request) => {
        expect(systemOf(request)).toContain('deploy');
        return { text: JSON.stringify(plan) };
      },
    ]);
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({ skills: [taskPlanningSkill], model, runtime, tools: [deploy] });
    const out = await skills.invokeDirect<PlanOut>('task_planning', { task: 'Ship billing' }, { emit: bus });
    expect(out.stepCount).toBe(2);
    expect(out.plan.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['test', []],
      ['ship', ['test']],
    ]);
    expect(model.calls).toBe(1);
    expect(deployed).toEqual([]);
    const types = new Set(events.map((e) => e.type));
    for (const type of ['tool_call', 'plan_step_started', 'plan_overview'] as const)
      expect(types.has(type)).toBe(false);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
  });

  it('re-asks with the problems when the plan is not a valid DAG', async () => {
    const cyclic = { ...plan, steps: [{ ...plan.steps[0]!, dependsOn: ['ship'] }, plan.steps[1]!] };
    const model = new ScriptedModel([
      { text: JSON.stringify(cyclic) },
      (request) => {
        expect(JSON.stringify(request.messages.at(-1))).toContain('Dependency cycle');
        return { text: JSON.stringify(plan) };
      },
    ]);
    const { runtime } = recorder();
    const skills = new SkillRegistry({ skills: [taskPlanningSkill], model, runtime });
    const out = await runtime.clock.run(
      skills.invokeDirect<PlanOut>('task_planning', { task: 'Ship billing', tools: [] }),
    );
    expect(out.stepCount).toBe(2);
    expect(model.calls).toBe(2);
  });

  it('fails with no_model without a model', async () => {
    const skills = new SkillRegistry({ skills: [taskPlanningSkill] });
    const error = await skills.invokeDirect('task_planning', { task: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillError);
    expect(error).toMatchObject({ kind: 'no_model' });
  });
});
