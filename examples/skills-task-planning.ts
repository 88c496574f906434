/**
 * The `task_planning` built-in skill, offline: the Planner as a skill — it
 * returns a validated plan (a DAG of steps) and executes nothing.
 *
 *   npx tsx examples/skills-task-planning.ts
 */
import { defineTool, SkillRegistry } from 'tandem-agents';
import { taskPlanningSkill } from 'tandem-agents/skills';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy a service',
  parameters: z.object({ service: z.string() }),
  risk: 'risky',
  execute: () => {
    throw new Error('task_planning never executes a step');
  },
});

const model = new ScriptedModel([
  {
    text: JSON.stringify({
      title: 'Release billing v2',
      summary: 'Test, migrate, then deploy',
      steps: [
        { id: 'test', description: 'Run the billing test suite', risk: 'safe' },
        { id: 'migrate', description: 'Apply the schema migration', risk: 'risky', dependsOn: ['test'] },
        {
          id: 'deploy',
          description: 'Deploy billing v2',
          tools: ['deploy'],
          risk: 'risky',
          dependsOn: ['migrate'],
        },
      ],
    }),
  },
]);

const skills = new SkillRegistry({ skills: [taskPlanningSkill], model, tools: [deploy] });
const { plan } = await skills.invokeDirect<{
  plan: { title: string; steps: { id: string; description: string; risk: string; dependsOn: string[] }[] };
}>('task_planning', { task: 'Release billing v2 to production' });
console.log(plan.title);
for (const step of plan.steps) {
  const after = step.dependsOn.length > 0 ? ` (after ${step.dependsOn.join(', ')})` : '';
  console.log(`- ${step.id} [${step.risk}]: ${step.description}${after}`);
}
console.log(`model calls: ${model.calls}; nothing executed`);
