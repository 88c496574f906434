import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collect, decideComplex, planJson, setup } from '../orchestrator/helpers.js';
import { expectInvariants } from '../support/invariants.js';
import { useQueueFixture } from './helpers.js';

const fixture = useQueueFixture();
const workerFile = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));

function startChild(url: string, queueName: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerFile, url, queueName], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('queue: a worker in another process', () => {
  it('runs the plan step in the child process and streams its tool events back to the run', async () => {
    const queueName = fixture.queueName();
    const child = await startChild(fixture.url(), queueName);
    fixture.onClose(async () => void (await stop(child)));
    const { orchestrator, models } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { stepRunner: fixture.runner({ queueName }) },
    );

    const { result, events } = await collect(orchestrator, 'One remote step');

    expect(result?.steps[0]).toMatchObject({ status: 'completed', output: `from pid ${child.pid}` });
    expect(models.executor.calls).toBe(0);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      stepId: 's1',
      name: 'add',
      output: '42',
    });
    expectInvariants(events);
    expect(await stop(child)).toBe(0);
  });
});
