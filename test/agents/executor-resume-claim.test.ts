/**
 * An Executor alone has no store: an app that saves its paused conversation
 * claims it with `claimCheckpoint` before resuming, so two resumes racing
 * over a real file store run the approved tool once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileCheckpointStore } from '../../src/fs/index.js';
import {
  ApprovalGate,
  claimCheckpoint,
  defineTool,
  Executor,
  MemoryInterruptBus,
  type Message,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';

interface Saved {
  revision: number;
  messages: Message[];
  approvals: string[];
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One "process" of the app: its own executor and approval gate. */
function app(ledger: string[], script: ScriptEntry[]) {
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order (a side effect that must happen once)',
    parameters: z.object({ order: z.string() }),
    risk: 'risky',
    execute: ({ order }) => {
      ledger.push(order);
      return `refunded ${order}`;
    },
  });
  const runtime = testRuntime();
  const approvals = new ApprovalGate({ bus: new MemoryInterruptBus({ clock: runtime.clock }), runtime });
  const model = new ScriptedModel(script);
  const executor = new Executor({
    model,
    tools: [refund],
    safety: { gate: approvals.gate, pauseOnInterrupt: true },
    runtime,
  });
  return { approvals, model, executor };
}

describe('Executor resumes claimed with claimCheckpoint', () => {
  it('of two resumes racing over a FileCheckpointStore, one runs the approved call (10 trials)', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'tandem-exec-claim-'));
      dirs.push(dir);
      const ledger: string[] = [];
      const store = new FileCheckpointStore<Saved>({ dir });
      const first = app(ledger, [{ toolCalls: [{ name: 'refund', args: { order: 'o1' } }] }]);
      const asked: string[] = [];
      let revision = 0;
      const run = first.executor.run('Refund o1', {
        onCheckpoint: (messages) =>
          store.save('pay', { revision: ++revision, messages: [...messages], approvals: asked }),
      });
      run.on('interrupt', (e) => asked.push(e.interrupt.toolCallId!));
      await expect(run.result).resolves.toMatchObject({
        status: 'interrupted',
        error: { kind: 'interrupted' },
      });
      const saved = (await store.load('pay'))!;

      const resume = async (script: ScriptEntry[]) => {
        const process = app(ledger, script);
        const own = new FileCheckpointStore<Saved>({ dir });
        await claimCheckpoint(own, 'pay', { ...saved, revision: saved.revision + 1 }, saved.revision);
        for (const id of saved.approvals) process.approvals.answer(id, { action: 'approve' });
        return process.executor.run([], { history: saved.messages }).result;
      };
      const outcomes = await Promise.allSettled([resume([{ text: 'done' }]), resume([{ text: 'done' }])]);

      expect(ledger).toEqual(['o1']);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
        reason: { name: 'CheckpointError', kind: 'conflict' },
      });
    }
  });
});
