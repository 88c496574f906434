/**
 * Two resumes of one paused run, racing in two "processes" over a real file
 * or Redis store: one claims the run and executes the approved tool, the
 * other fails with a `conflict` and executes nothing — on every trial.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../../src/fs/index.js';
import {
  ApprovalGate,
  type CheckpointStore,
  MemoryCheckpointStore,
  MemoryInterruptBus,
  Orchestrator,
  type RunState,
} from '../../src/index.js';
import { RedisCheckpointStore } from '../../src/redis/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { auditAndRefund } from './fixtures/ledger-tool.js';
import { decideComplex, planJson } from './helpers.js';

const TRIALS = 10;
const simple = { text: '{"needsPlan": false, "reasoning": "one call"}' };
const refund = (entry: string): ScriptEntry => ({ toolCalls: [{ name: 'refund', args: { entry } }] });

/** The two ways a run pauses: a simple run (one Executor conversation) and a plan step. */
const paths: [string, { planner: ScriptEntry[]; pausing: ScriptEntry[] }][] = [
  ['a simple run (Executor)', { planner: [simple], pausing: [refund('r')] }],
  ['a plan step', { planner: [decideComplex, { text: planJson([{ id: 's1' }]) }], pausing: [refund('r')] }],
];

/** One "process": its own orchestrator, approval gate and store client, over the shared store and ledger. */
function processOf(
  store: CheckpointStore,
  ledger: string[],
  planner: ScriptEntry[],
  executor: ScriptEntry[],
) {
  const executorModel = new ScriptedModel(executor, { id: 'scripted:executor' });
  const orchestrator = new Orchestrator({
    models: {
      planner: new ScriptedModel(planner, { id: 'scripted:planner' }),
      executor: executorModel,
      verifier: false,
      finalizer: ({ steps }) => steps.map((s) => s.output).join(' | '),
    },
    planning: { classify: 'llm' },
    tools: auditAndRefund((line) => ledger.push(line)),
    checkpoints: { store },
    safety: { approvals: new ApprovalGate({ bus: new MemoryInterruptBus() }), pauseOnInterrupt: true },
    runtime: testRuntime(),
  });
  return { orchestrator, executorModel };
}

/** Pauses a run, then resumes it twice at once from two processes; returns what each saw. */
async function race(
  stores: () => [CheckpointStore, CheckpointStore, CheckpointStore],
  path: (typeof paths)[number][1],
) {
  const ledger: string[] = [];
  const [first, a, b] = stores();
  const paused = processOf(first, ledger, path.planner, path.pausing).orchestrator.run('Refund r');
  await expect(paused.result).resolves.toMatchObject({
    status: 'interrupted',
    error: { kind: 'interrupted' },
  });
  const state = (await first.load(paused.runId)) as RunState;
  expect(state.status).toBe('paused');
  const responses = { [state.interrupts[0]!.id]: { action: 'approve' as const } };

  const resumers = [a, b].map((store) => processOf(store, ledger, [], [{ text: 'refunded' }]));
  const outcomes = await Promise.allSettled(
    resumers.map(({ orchestrator }) => orchestrator.resume(state, { responses }).result),
  );
  return { ledger, outcomes, resumers, final: (await first.load(paused.runId)) as RunState };
}

function expectOneRan(result: Awaited<ReturnType<typeof race>>): void {
  const { ledger, outcomes, resumers, final } = result;
  expect(ledger).toEqual(['refund r']);
  const won = outcomes.findIndex((o) => o.status === 'fulfilled');
  const lost = 1 - won;
  expect(won).toBeGreaterThanOrEqual(0);
  expect(outcomes[lost]).toMatchObject({
    status: 'rejected',
    reason: { name: 'CheckpointError', kind: 'conflict' },
  });
  expect((outcomes[lost] as PromiseRejectedResult).reason.message).toMatch(/claimed by another resume/);
  expect(resumers[lost]!.executorModel.requests).toHaveLength(0);
  expect(final.status).toBe('completed');
}

describe.each(paths)('two concurrent resumes of %s', (_name, path) => {
  it(`over a FileCheckpointStore: exactly one runs the approved tool (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'tandem-claim-'));
      try {
        const store = () => new FileCheckpointStore({ dir });
        expectOneRan(await race(() => [store(), store(), store()], path));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  describe('over a RedisCheckpointStore', () => {
    let server: RedisServer;
    const clients: Redis[] = [];
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      await server?.stop();
    });

    it(`exactly one runs the approved tool (${TRIALS} trials, one connection per process)`, async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const keyPrefix = `claim${trial}:`;
        const store = () => {
          const client = new Redis(server.url);
          clients.push(client);
          return new RedisCheckpointStore({ client, keyPrefix });
        };
        expectOneRan(await race(() => [store(), store(), store()], path));
      }
    });
  });
});

describe('resume claims', () => {
  it('a resume of a state that another resume already moved on fails with a conflict, even through a store without saveIf', async () => {
    const inner = new MemoryCheckpointStore();
    // A user's store with only the required methods: the claim is load, compare, save.
    const store: CheckpointStore = { save: (id, s) => inner.save(id, s), load: (id) => inner.load(id) };
    const ledger: string[] = [];
    const paused = processOf(store, ledger, [simple], [refund('r')]).orchestrator.run('Refund r');
    await expect(paused.result).resolves.toMatchObject({
      status: 'interrupted',
      error: { kind: 'interrupted' },
    });
    const state = (await store.load(paused.runId)) as RunState;
    const responses = { [state.interrupts[0]!.id]: { action: 'approve' as const } };

    const winner = processOf(store, ledger, [], [{ text: 'refunded' }]);
    await winner.orchestrator.resume(state, { responses }).result;
    const late = processOf(store, ledger, [], [{ text: 'refunded again' }]);
    await expect(late.orchestrator.resume(state, { responses }).result).rejects.toMatchObject({
      name: 'CheckpointError',
      kind: 'conflict',
    });
    expect(ledger).toEqual(['refund r']);
    expect(late.executorModel.requests).toHaveLength(0);
    expect(((await store.load(paused.runId)) as RunState).status).toBe('completed');
  });

  it('the latest saved state resumes again after a resume paused it once more', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const ledger: string[] = [];
    const first = processOf(store, ledger, [simple], [refund('r1')]).orchestrator.run('Refund twice');
    await expect(first.result).resolves.toMatchObject({
      status: 'interrupted',
      error: { kind: 'interrupted' },
    });
    const once = (await store.load(first.runId))!;
    const second = processOf(store, ledger, [], [refund('r2')]).orchestrator.resume(once, {
      responses: { [once.interrupts[0]!.id]: { action: 'approve' } },
    });
    await expect(second.result).resolves.toMatchObject({
      status: 'interrupted',
      error: { kind: 'interrupted' },
    });
    const twice = (await store.load(first.runId))!;
    expect(twice.revision).toBeGreaterThan(once.revision!);
    const third = processOf(store, ledger, [], [{ text: 'done' }]).orchestrator.resume(twice, {
      responses: { [twice.interrupts[0]!.id]: { action: 'approve' } },
    });
    await expect(third.result).resolves.toMatchObject({ output: 'done' });
    expect(ledger).toEqual(['refund r1', 'refund r2']);
  });
});
