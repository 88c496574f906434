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
import {
  createProgressStore,
  Orchestrator,
  type RunProgress,
  type StepProgress,
  type TandemEvent,
  toSSE,
} from 'tandem-agents';
import { add, lookupPopulation, scriptedModels } from './support/population-scenario.js';

const orchestrator = new Orchestrator({
  models: scriptedModels(),
  tools: [lookupPopulation, add],
  planning: { classify: 'llm' },
  limits: { maxIterations: 3 },
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
