/**
 * Evals, offline: the demo's orchestration (plan → look-ups → sum → verify →
 * answer, examples/demo.ts) measured on a 10-case dataset with scorers on
 * the answer, the tool trajectory, the plan's shape, the budget and an LLM
 * judge — all on scripted models — then a markdown summary and the HTML
 * report, written to a temporary directory.
 *
 *   npx tsx examples/eval-demo.ts
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Orchestrator } from 'tandem-agents';
import {
  agentTask,
  budget,
  consoleProgress,
  dataset,
  evaluate,
  htmlReport,
  includes,
  llmJudge,
  markdownSummary,
  planShape,
  toolTrajectory,
} from 'tandem-agents/evals';
import { ScriptedModel } from 'tandem-agents/testing';
import { add, lookupPopulation } from './support/population-scenario.js';

const POPULATIONS: Record<string, number> = { Lisbon: 545_000, Porto: 232_000, Braga: 193_000 };
const total = (cities: string[]) => cities.reduce((sum, city) => sum + POPULATIONS[city]!, 0);

/** The demo's orchestration for one case, on models scripted to answer it (a real model needs no script). */
function orchestration(cities: string[]): Orchestrator {
  const lookups = cities.map((city) => ({
    id: `lookup_${city.toLowerCase()}`,
    description: `Look up the population of ${city}`,
    tools: ['lookup_population'],
    dependsOn: [],
  }));
  const sum = {
    id: 'sum',
    description: 'Add the populations',
    tools: ['add'],
    dependsOn: lookups.map((s) => s.id),
  };
  const plan = {
    title: `Population of ${cities.join(', ')}`,
    summary: 'Look up, then add.',
    steps: [...lookups, sum],
  };
  const answer = `${cities.join(' + ')} = ${total(cities).toLocaleString('en-US')} inhabitants.`;
  const planner = new ScriptedModel(
    [{ text: '{"needsPlan": true, "reasoning": "look-ups and a sum"}' }, { text: JSON.stringify(plan) }],
    { id: 'scripted:planner', estimateUsage: true },
  );
  const executor = new ScriptedModel(
    [
      ...cities.flatMap((city) => [
        { toolCalls: [{ name: 'lookup_population', args: { city } }] },
        { text: `${city} has ${POPULATIONS[city]} people.` },
      ]),
      { toolCalls: [{ name: 'add', args: { numbers: cities.map((c) => POPULATIONS[c]!) } }] },
      { text: `The total is ${total(cities)}.` },
      { text: answer },
    ],
    { id: 'scripted:executor', estimateUsage: true },
  );
  const verifier = new ScriptedModel([{ text: 'PASS: every population found and summed.' }], {
    id: 'scripted:verifier',
    estimateUsage: true,
  });
  return new Orchestrator({
    models: { planner, executor, verifier },
    tools: [lookupPopulation, add],
    planning: { classify: 'llm' },
    limits: { maxIterations: 3, stepConcurrency: 1 },
  });
}

// Every non-empty set of the three cities, and the three-city set in three more orders: 10 cases.
const sets = [['Lisbon'], ['Porto'], ['Braga'], ['Lisbon', 'Porto'], ['Lisbon', 'Braga'], ['Porto', 'Braga']];
const threes = [
  ['Lisbon', 'Porto', 'Braga'],
  ['Braga', 'Porto', 'Lisbon'],
  ['Porto', 'Lisbon', 'Braga'],
  ['Braga', 'Lisbon', 'Porto'],
];
const cases = await dataset(
  [...sets, ...threes].map((cities) => ({
    id: cities.join('+'),
    input: cities,
    expected: total(cities).toLocaleString('en-US'),
  })),
  { name: 'portuguese-cities' },
);

// The judge is scripted too: it passes every answer that states a number.
const judge = new ScriptedModel(
  [
    (request) => ({
      text: JSON.stringify({
        score: /\d/.test(JSON.stringify(request.messages)) ? 1 : 0,
        reason: 'States the total.',
      }),
    }),
  ],
  { id: 'scripted:judge', loop: true, estimateUsage: true },
);

const results = await evaluate({
  name: 'demo orchestration',
  dataset: cases,
  task: agentTask<string[]>(orchestration, {
    prompt: (cities) => `Add up the populations of ${cities.join(', ')}.`,
  }),
  scorers: [
    includes(),
    toolTrajectory({ expected: ['lookup_population', 'add'], forbidden: ['delete_file'] }),
    planShape({ maxSteps: 4 }),
    budget({ maxTokens: 20_000 }),
    llmJudge({ model: judge, rubric: 'The answer states the total population as a number.' }),
  ],
  concurrency: 2,
  onCase: consoleProgress(process.stdout),
});

console.log(markdownSummary(results));
const dir = await mkdtemp(join(tmpdir(), 'tandem-eval-demo-'));
await writeFile(join(dir, 'results.json'), JSON.stringify(results, null, 2));
await writeFile(join(dir, 'report.html'), htmlReport(results));
console.log(
  `dataset ${results.dataset.name}: ${results.dataset.size} cases, sha256 ${results.dataset.hash.slice(0, 12)}`,
);
console.log(`report: ${join(dir, 'report.html')}`);
