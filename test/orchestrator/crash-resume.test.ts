import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Orchestrator } from '../../src/agents/index.js';
import { FileCheckpointStore } from '../../src/fs/index.js';
import type { RunState } from '../../src/state/run-state.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { record } from './fixtures/ledger-tool.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runChild(args: string[]): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/orchestrator/fixtures/crash-run.ts', ...args],
      { cwd: root },
      (error) => resolve((error as { signal?: NodeJS.Signals } | null)?.signal ?? null),
    );
  });
}

describe('resume after kill -9', () => {
  it('continues a run whose process was SIGKILLed mid-step: completed steps and recorded tools are not repeated', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-crash-'));
    const ledger = join(dir, 'ledger.txt');
    const checkpoints = join(dir, 'checkpoints');
    expect(await runChild([checkpoints, ledger])).toBe('SIGKILL');
    expect(readFileSync(ledger, 'utf8')).toBe('s1\ns2\n');

    const store = new FileCheckpointStore<RunState>({ dir: checkpoints });
    const saved = await store.load('run_crash');
    expect(saved?.steps.map((s) => s.status)).toEqual(['completed', 'running', 'pending']);

    const executor = new ScriptedModel([
      { text: 's2 recorded' },
      { toolCalls: [{ name: 'record', args: { entry: 's3' } }] },
      { text: 's3 recorded' },
    ]);
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([]),
        executor,
        verifier: false,
        finalizer: ({ steps }) => steps.map((s) => s.output).join(', '),
      },
      tools: [record(ledger)],
      checkpoints: { store },
      runtime: testRuntime(),
    });
    const result = await orchestrator.resume(saved).result;
    expect(result.output).toBe('s1 recorded, s2 recorded, s3 recorded');
    expect(readFileSync(ledger, 'utf8')).toBe('s1\ns2\ns3\n');
    expect((await store.load('run_crash'))?.status).toBe('completed');
    executor.assertConsumed();
  });
});
