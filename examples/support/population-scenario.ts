/**
 * The scenario of the demo and the progress-UI example: three population
 * look-ups and a sum, on scripted models — one step fails on its first
 * attempt (a misspelled city until the iterations run out) and is rescued by
 * the planner's enhanced instructions. The models estimate their token usage
 * from the text they see and write, so the demo's token counts are not zero.
 */

import { type ChatModel, defineTool } from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const POPULATIONS: Record<string, number> = { lisbon: 545_000, porto: 232_000, braga: 193_000 };

export const lookupPopulation = defineTool({
  name: 'lookup_population',
  description: 'Population of a Portuguese city (city proper).',
  parameters: z.object({ city: z.string().describe('City name, e.g. "Lisbon"') }),
  parallelSafe: true,
  execute: ({ city }) => {
    const population = POPULATIONS[city.trim().toLowerCase()];
    if (population === undefined) throw new Error(`Unknown city "${city}". Known: Lisbon, Porto, Braga.`);
    return { city, population };
  },
});

export const add = defineTool({
  name: 'add',
  description: 'Add a list of numbers.',
  parameters: z.object({ numbers: z.array(z.number()) }),
  parallelSafe: true,
  execute: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});

export const TASK =
  'First look up the populations of Lisbon and Porto, then look up Braga, and finally add all three and report the total.';

export function scriptedModels(): { planner: ChatModel; executor: ChatModel; verifier: ChatModel } {
  const plan = {
    title: 'Total population of three cities',
    summary: 'Look up each city, then add the populations.',
    steps: [
      {
        id: 'lookup_lp',
        description: 'Look up the populations of Lisbon and Porto',
        tools: ['lookup_population'],
        dependsOn: [],
      },
      {
        id: 'lookup_b',
        description: 'Look up the population of Braga',
        tools: ['lookup_population'],
        dependsOn: [],
      },
      {
        id: 'sum',
        description: 'Add the three populations',
        tools: ['add'],
        dependsOn: ['lookup_lp', 'lookup_b'],
      },
    ],
  };
  const planner = new ScriptedModel(
    [
      { text: '{"needsPlan": true, "reasoning": "Three look-ups and a sum: several dependent actions."}' },
      { text: `\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`` },
      { text: 'Call lookup_population with city "Braga" (spelled exactly so), then report the number.' },
    ],
    { id: 'scripted:planner', estimateUsage: true },
  );
  const executor = new ScriptedModel(
    [
      {
        toolCalls: [
          { name: 'lookup_population', args: { city: 'Lisbon' } },
          { name: 'lookup_population', args: { city: 'Porto' } },
        ],
      },
      { text: 'Lisbon has 545,000 people and Porto 232,000.' },
      // Step 2, first attempt: the model misspells the city until its iterations run out.
      { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
      { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
      { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
      // Step 2, retry with the planner's enhanced instructions.
      { toolCalls: [{ name: 'lookup_population', args: { city: 'Braga' } }] },
      { text: 'Braga has 193,000 people.' },
      { toolCalls: [{ name: 'add', args: { numbers: [545_000, 232_000, 193_000] } }] },
      { text: 'The three cities total 970,000 people.' },
      // The final answer, streamed.
      {
        text: 'Lisbon (545,000), Porto (232,000) and Braga (193,000) together have **970,000** inhabitants.',
      },
    ],
    { id: 'scripted:executor', estimateUsage: true },
  );
  const verifier = new ScriptedModel([{ text: 'PASS: all three populations were found and summed.' }], {
    id: 'scripted:verifier',
    estimateUsage: true,
  });
  return { planner, executor, verifier };
}
