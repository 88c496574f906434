/** Scripted agents the eval tests measure: a calculator Executor and a city-population Orchestrator. */
import { z } from 'zod';
import { defineTool, Executor, Orchestrator } from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';

const POPULATIONS: Record<string, number> = { lisbon: 545_000, porto: 232_000, braga: 193_000, faro: 67_000 };

export const calculator = defineTool({
  name: 'calculator',
  description: 'Evaluate a sum a+b.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const guess = defineTool({
  name: 'guess',
  description: 'Guess a number.',
  parameters: z.object({}),
  execute: () => 42,
});

/**
 * An Executor answering "a+b" questions. With the good prompt (it names the
 * calculator) the scripted model calls the calculator; with any other prompt
 * it guesses: the broken prompt lowers the scores.
 */
export function calculatorAgent(instructions: string): Executor {
  const script: ScriptEntry = (request) => {
    const [, a, b] = /(\d+)\+(\d+)/.exec(JSON.stringify(request.messages[0]!.content)) ?? [];
    const last = request.messages.at(-1)!;
    if (last.role === 'tool') {
      const guessed = JSON.stringify(last).includes('42');
      return { text: `The answer is ${guessed ? 42 : Number(a) + Number(b)}.` };
    }
    if (!JSON.stringify(request.system ?? '').includes('calculator'))
      return { toolCalls: [{ name: 'guess', args: {} }], usage: { inputTokens: 10, outputTokens: 5 } };
    return {
      toolCalls: [{ name: 'calculator', args: { a: Number(a), b: Number(b) } }],
      usage: { inputTokens: 10, outputTokens: 5 },
    };
  };
  const model = new ScriptedModel([script], { loop: true });
  return new Executor({ model, tools: [calculator, guess], instructions, runtime: testRuntime() });
}

/** A plan step as the planner writes it. */
function step(id: string, description: string, dependsOn: string[] = []) {
  return {
    id,
    description,
    expectedOutput: `${id} output`,
    tools: [],
    expectedFiles: [],
    risk: 'safe',
    dependsOn,
  };
}

/** An Orchestrator that plans one look-up per city and a sum, on scripted models (one per run). */
export function populationOrchestrator(
  cities: string[],
  options: { repeatStep?: boolean } = {},
): Orchestrator {
  const lookups = cities.map((c) => step(`lookup_${c.toLowerCase()}`, `Look up the population of ${c}`));
  if (options.repeatStep) lookups.push(step('again', `Look up the population of ${cities[0]}`));
  const steps = [
    ...lookups,
    step(
      'sum',
      'Add the populations',
      lookups.map((s) => s.id),
    ),
  ];
  const plan = { title: 'Population total', summary: 'Look up, then add.', steps };
  const numbers = cities.map((c) => POPULATIONS[c.toLowerCase()]!);
  const total = numbers.reduce((a, b) => a + b, 0);
  const executor: ScriptEntry[] = [
    ...lookups.flatMap((_step, i) => {
      const city = cities[i] ?? cities[0]!;
      return [
        { toolCalls: [{ name: 'lookup_population', args: { city } }] },
        { text: `${city} has ${POPULATIONS[city.toLowerCase()]} people.` },
      ];
    }),
    { toolCalls: [{ name: 'add', args: { numbers } }] },
    { text: `The total is ${total}.` },
  ];
  const models = {
    planner: new ScriptedModel([
      { text: '{"needsPlan": true, "reasoning": "several look-ups"}' },
      { text: JSON.stringify(plan) },
    ]),
    executor: new ScriptedModel(executor),
    verifier: new ScriptedModel([{ text: 'PASS: summed.' }]),
    finalizer: new ScriptedModel([{ text: `Together they have ${total} people.` }]),
  };
  return new Orchestrator({
    models,
    tools: [lookupPopulation, add],
    planning: { classify: 'llm' },
    limits: { stepConcurrency: 1 },
    runtime: testRuntime(),
  });
}

export const lookupPopulation = defineTool({
  name: 'lookup_population',
  description: 'Population of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => POPULATIONS[city.toLowerCase()] ?? 0,
});

export const add = defineTool({
  name: 'add',
  description: 'Add numbers.',
  parameters: z.object({ numbers: z.array(z.number()) }),
  execute: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});
