/**
 * A progress UI fed over Server-Sent Events, offline: the server side turns an
 * orchestration's events into an SSE byte stream (`toSSE`, what `sseResponse`
 * sends), the client side parses it with `eventsource-parser` — as a browser's
 * `EventSource` would — and folds each event into a progress store, printing
 * one compact line whenever the plan or the stage moves.
 *
 *   npx tsx examples/progress-ui.ts
 */
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import { Orchestrator } from '../src/agents/orchestrator.js';
import type { TandemEvent } from '../src/core/events.js';
import { createProgressStore, type RunProgress, type StepProgress, toSSE } from '../src/state/index.js';
import { ScriptedModel } from '../src/testing/index.js';
import { defineTool } from '../src/tools/types.js';

const POPULATIONS: Record<string, number> = { lisbon: 545_000, porto: 232_000, braga: 193_000 };

const lookupPopulation = defineTool({
  name: 'lookup_population',
  description: 'Population of a Portuguese city.',
  parameters: z.object({ city: z.string() }),
  parallelSafe: true,
  execute: ({ city }) => {
    const population = POPULATIONS[city.trim().toLowerCase()];
    if (population === undefined) throw new Error(`Unknown city "${city}".`);
    return { city, population };
  },
});

const add = defineTool({
  name: 'add',
  description: 'Add a list of numbers.',
  parameters: z.object({ numbers: z.array(z.number()) }),
  execute: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});

const plan = {
  title: 'Total population of three cities',
  summary: 'Look up each city, then add the populations.',
  steps: [
    { id: 'lookup_lp', description: 'Look up Lisbon and Porto', tools: ['lookup_population'], dependsOn: [] },
    { id: 'lookup_b', description: 'Look up Braga', tools: ['lookup_population'], dependsOn: [] },
    { id: 'sum', description: 'Add the three', tools: ['add'], dependsOn: ['lookup_lp', 'lookup_b'] },
  ],
};

const orchestrator = new Orchestrator({
  planner: new ScriptedModel([
    { text: '{"needsPlan": true, "reasoning": "three look-ups and a sum"}' },
    { text: JSON.stringify(plan) },
    { text: 'Call lookup_population with city "Braga", spelled exactly so.' },
  ]),
  executor: new ScriptedModel([
    {
      toolCalls: [
        { name: 'lookup_population', args: { city: 'Lisbon' } },
        { name: 'lookup_population', args: { city: 'Porto' } },
      ],
    },
    { text: 'Lisbon has 545,000 people and Porto 232,000.' },
    // Braga, first attempt: misspelled until the iterations run out, so the step is retried.
    { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
    { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
    { toolCalls: [{ name: 'lookup_population', args: { city: 'Bragga' } }] },
    { toolCalls: [{ name: 'lookup_population', args: { city: 'Braga' } }] },
    { text: 'Braga has 193,000 people.' },
    { toolCalls: [{ name: 'add', args: { numbers: [545_000, 232_000, 193_000] } }] },
    { text: 'The three cities total 970,000 people.' },
    { text: 'Lisbon, Porto and Braga together have 970,000 inhabitants.' },
  ]),
  verifier: new ScriptedModel([{ text: 'PASS: all three found and summed.' }]),
  tools: [lookupPopulation, add],
  classify: 'llm',
  executorOptions: { maxIterations: 3 },
});

const MARK: Record<StepProgress['status'], string> = {
  pending: '☐',
  running: '▶',
  retrying: '↻',
  completed: '✓',
  failed: '✗',
  skipped: '⤼',
};

/** One line: stage, each step with its mark (and attempt when retried), tools, tokens. */
function line(p: RunProgress): string {
  const steps = (p.plan?.steps ?? [])
    .map((s) => `${MARK[s.status]} ${s.id}${s.attempts > 1 ? ` (attempt ${s.attempts}, ${s.mode})` : ''}`)
    .join('  ');
  const running = p.tools.filter((t) => t.status === 'running').length;
  const failed = p.tools.filter((t) => t.status === 'failed').length;
  const stage = p.currentStage ?? p.status;
  return `#${String(p.lastSeq).padStart(3)} [${stage.padEnd(11)}] ${steps || '—'} | tools ${p.tools.length} (${running} running, ${failed} failed)`;
}

const MOVES = new Set<TandemEvent['type']>([
  'plan_overview',
  'plan_step_started',
  'plan_step_completed',
  'plan_step_failed',
]);

async function main(): Promise<void> {
  // Server side: the run's events as SSE bytes (an HTTP handler would `return sseResponse(run)`).
  const body = toSSE(orchestrator.run('Total population of Lisbon, Porto and Braga'));

  // Client side: parse SSE and fold every event into the store.
  const store = createProgressStore();
  store.subscribe((progress, event) => {
    const moved = event.type === 'stage' ? event.status === 'running' : MOVES.has(event.type);
    if (moved) console.log(line(progress));
  });
  const parser = createParser({ onEvent: (message) => store.apply(JSON.parse(message.data)) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
    parser.feed(decoder.decode(chunk.value, { stream: true }));

  const final = store.getState();
  console.log(`${final.status} (${final.outcome}): ${final.output}`);
  console.log(`checklist ${final.todo?.checked}/${final.todo?.total}, ${final.lastSeq} events`);
  process.exitCode = final.outcome === 'success' ? 0 : 1;
}

await main();
