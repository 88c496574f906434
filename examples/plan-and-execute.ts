/**
 * Plan and execute, offline: a plan whose last step depends on two others,
 * findings flowing into the dependent step, a FAIL verdict, and a re-plan
 * that runs only the new work.
 *
 *   npx tsx examples/plan-and-execute.ts
 */

import { defineTool, Orchestrator } from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const readDoc = defineTool({
  name: 'read_doc',
  description: 'Read a short internal document by name.',
  parameters: z.object({ name: z.enum(['pricing', 'roadmap', 'faq']) }),
  parallelSafe: true,
  execute: ({ name }) =>
    ({
      pricing: 'Basic costs 10 EUR/month, Pro 25 EUR/month.',
      roadmap: 'Q3: SSO. Q4: audit logs.',
      faq: 'Refunds within 30 days.',
    })[name],
});

const step = (id: string, description: string, dependsOn: string[] = []) => ({ id, description, dependsOn });
const planner = new ScriptedModel([
  { text: '{"needsPlan": true, "reasoning": "Two documents to read and a summary that depends on both."}' },
  {
    text: JSON.stringify({
      title: 'Customer brief',
      summary: 'Read pricing and roadmap, then write a brief.',
      steps: [
        step('pricing', 'Read the pricing document'),
        step('roadmap', 'Read the roadmap'),
        step('brief', 'Write the brief', ['pricing', 'roadmap']),
      ],
    }),
  },
  {
    text: JSON.stringify({
      title: 'Customer brief (revised)',
      summary: 'Add the refund policy the verifier asked for.',
      steps: [
        step('faq', 'Read the FAQ for the refund policy'),
        step('brief2', 'Write the brief with the refund policy', ['brief', 'faq']),
      ],
    }),
  },
]);
const executor = new ScriptedModel([
  { toolCalls: [{ name: 'read_doc', args: { name: 'pricing' } }] },
  { text: 'Pricing: Basic 10 EUR, Pro 25 EUR per month.' },
  { toolCalls: [{ name: 'read_doc', args: { name: 'roadmap' } }] },
  { text: 'Roadmap: SSO in Q3, audit logs in Q4.' },
  (request) => ({
    text: `Brief drafted from: ${String(request.system).includes('Basic 10 EUR') ? 'pricing + roadmap' : '?'}`,
  }),
  { toolCalls: [{ name: 'read_doc', args: { name: 'faq' } }] },
  { text: 'Refunds are possible within 30 days.' },
  { text: 'Brief: Basic 10 EUR / Pro 25 EUR; SSO Q3, audit logs Q4; 30-day refunds.' },
  {
    text: 'Basic costs 10 EUR and Pro 25 EUR a month; SSO ships in Q3 and audit logs in Q4; refunds within 30 days.',
  },
]);
const verifier = new ScriptedModel([
  { text: 'FAIL: the brief misses the refund policy.' },
  { text: 'PASS: complete.' },
]);

const run = new Orchestrator({
  models: { planner, executor, verifier },
  tools: [readDoc],
  planning: { classify: 'llm' },
}).run('Write a customer brief covering pricing, roadmap and the refund policy.');
run.on('plan_overview', (e) => console.log(`plan: ${e.steps.map((s) => s.id).join(', ')}`));
run.on('plan_step_completed', (e) => console.log(`  ✓ ${e.stepId}: ${e.output}`));
run.on('plan_revised', (e) =>
  console.log(`re-plan #${e.revision} (${e.reason}): ${e.steps.map((s) => s.id).join(', ')}`),
);
const result = await run.result;
console.log(`\n${result.output}\nstatus=${result.status} revisions=${result.revisions}`);
