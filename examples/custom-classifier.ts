/**
 * A custom plan-or-not rule: plan only tasks that mention more than one
 * deliverable, and run everything else directly — no planner call at all.
 *
 *   npx tsx examples/custom-classifier.ts
 */

import { classifyQuery, Orchestrator } from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';

const deliverables = (task: string) =>
  (task.match(/\b(report|chart|summary|email|slide)s?\b/gi) ?? []).length;

const planner = new ScriptedModel([]); // never called for these tasks
const executor = new ScriptedModel([{ text: 'Done: a summary of the Q3 numbers.' }]);
const orchestrator = new Orchestrator({
  models: { planner, executor },
  planning: { classify: (task) => (deliverables(task) > 1 ? 'complex' : 'simple') },
});

const task = 'Please write a summary of the Q3 numbers for the board meeting next week';
console.log('built-in heuristic says:', classifyQuery(task));
const run = orchestrator.run(task);
run.on('routing', (e) => console.log(`custom classifier routed it: ${e.complexity}`));
const result = await run.result;
console.log(result.output, `(planner calls: ${planner.calls})`);
