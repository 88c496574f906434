/**
 * Plan steps run by a worker through a BullMQ queue: the main orchestrator
 * plans, verifies and writes the answer; each step is a job that a worker
 * (another orchestrator, with its own executor model and tools) runs, its
 * events streaming back live. Both sides live in this process here; in
 * production the worker is a separate service. Needs a Redis server:
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/queue.ts
 *
 * Offline (models are scripted), but without REDIS_URL it only explains and exits.
 */

import { defineTool, Orchestrator } from 'tandem-agents';
import { queueStepRunner, startStepWorker } from 'tandem-agents/queue';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const url = process.env.REDIS_URL;
if (!url) {
  console.log('examples/queue.ts dispatches plan steps through Redis (BullMQ).');
  console.log('Set REDIS_URL (e.g. redis://127.0.0.1:6379) to run it; nothing to do without it.');
  process.exit(0);
}

const queueName = `tandem-example-${process.pid}`;
const population = defineTool({
  name: 'population',
  description: 'Population of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ Lisbon: 545_000, Porto: 232_000 })[city] ?? 'unknown',
});

// The worker side: the executor model and the tools live here.
const workerOrchestrator = new Orchestrator({
  models: {
    planner: new ScriptedModel([]),
    executor: new ScriptedModel([
      { toolCalls: [{ name: 'population', args: { city: 'Lisbon' } }] },
      { text: 'Lisbon: 545,000.' },
      { toolCalls: [{ name: 'population', args: { city: 'Porto' } }] },
      { text: 'Porto: 232,000.' },
    ]),
  },
  tools: [population],
});
const worker = await startStepWorker({ connection: url, queueName, orchestrator: workerOrchestrator });

// The dispatching side: no executor work happens here.
const runner = queueStepRunner({ connection: url, queueName, jobTimeoutMs: 60_000 });
const step = (id: string, description: string) => ({
  id,
  description,
  expectedOutput: 'a number',
  tools: ['population'],
  expectedFiles: [],
  risk: 'safe',
  dependsOn: [],
});
const main = new Orchestrator({
  models: {
    planner: new ScriptedModel([
      { text: '{"needsPlan": true, "reasoning": "two look-ups"}' },
      {
        text: JSON.stringify({
          title: 'Populations',
          summary: 'Look up both cities',
          steps: [step('lisbon', 'Population of Lisbon'), step('porto', 'Population of Porto')],
        }),
      },
    ]),
    executor: new ScriptedModel([]),
    verifier: new ScriptedModel([{ text: 'PASS: both numbers found' }]),
    finalizer: new ScriptedModel([{ text: 'Lisbon has 545,000 people and Porto 232,000.' }]),
  },
  planning: { classify: 'llm' },
  stepRunner: runner,
});

try {
  const run = main.run('How many people live in Lisbon and in Porto?');
  run.on('plan_step_started', (e) => console.log(`→ ${e.stepId} dispatched to the queue`));
  run.on('tool_call', (e) => console.log(`  [worker] ${e.name}(${JSON.stringify(e.args)})`));
  run.on('tool_result', (e) => console.log(`  [worker] → ${e.output}`));
  run.on('plan_step_completed', (e) => console.log(`✓ ${e.stepId}: ${e.output}`));
  const result = await run.result;
  console.log(`\n${result.output}\nstatus=${result.status}`);
} finally {
  await runner.close();
  await worker.close();
}
