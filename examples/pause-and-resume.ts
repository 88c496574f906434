/**
 * Approval across processes: a run stops at a tool that needs approval
 * (status `interrupted`) and its state is saved to disk; a second process
 * (this file, started again with --approve) loads the state, approves the
 * call on it, and resumes the run to the end.
 *
 *   npx tsx examples/pause-and-resume.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineTool, Orchestrator, PausedState, type RunState } from 'tandem-agents';
import { FileCheckpointStore } from 'tandem-agents/fs';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order (moves money)',
  parameters: z.object({ order: z.string(), cents: z.number().int() }),
  needsApproval: true,
  execute: ({ order, cents }) => `refunded ${cents / 100} EUR on order ${order}`,
});

function orchestrator(dir: string, executor: ScriptedModel, planner: ScriptedModel) {
  return new Orchestrator({
    models: { planner, executor },
    tools: [refund],
    planning: { classify: 'llm' },
    checkpoints: { store: new FileCheckpointStore<RunState>({ dir }) },
  });
}

const [flag, dir, runId] = process.argv.slice(2);
if (flag === '--approve' && dir && runId) {
  // Second process: load, approve the pending call, resume.
  const store = new FileCheckpointStore<RunState>({ dir });
  const state = PausedState.from(await store.load(runId));
  const pending = state.interruptions[0]!;
  console.log(
    `[process 2] loaded ${runId}: ${state.status}, pending "${pending.title}" ${JSON.stringify(pending.args)}`,
  );
  console.log('[process 2] approving and resuming');
  state.approve(pending.id);
  const run = orchestrator(
    dir,
    new ScriptedModel([{ text: 'Refunded 12.50 EUR on order A-17.' }]),
    new ScriptedModel([]),
  ).resume(state);
  run.on('tool_result', (e) => console.log(`[process 2] ${e.name} → ${e.output}`));
  const result = await run.result;
  console.log(`[process 2] done: ${result.output} (${result.status})`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-pause-'));
  try {
    const run = orchestrator(
      dir,
      new ScriptedModel([{ toolCalls: [{ name: 'refund', args: { order: 'A-17', cents: 1250 } }] }]),
      new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "a single refund"}' }]),
    ).run('Refund order A-17 (12.50 EUR)');
    run.on('interrupt', (e) => console.log(`[process 1] asks a human: ${e.interrupt.title}`));
    const result = await run.result;
    const asks = result.interruptions?.map((i) => `${i.toolName} ${JSON.stringify(i.args)}`).join(', ');
    console.log(`[process 1] stopped: ${result.status} (${asks}) — state saved in ${dir}`);
    const child = execFileSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--approve', dir, run.runId],
      {
        encoding: 'utf8',
      },
    );
    process.stdout.write(child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
