/**
 * A checkpoint save that failed while Redis was down never lands when Redis
 * comes back. Redis sits behind a TCP proxy, so cutting the proxy is an
 * outage the server's data survives, and what the store holds afterwards can
 * be compared with what the run was told.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Orchestrator, type RunState, type TandemEvent } from '../../src/index.js';
import { RedisCheckpointStore } from '../../src/redis/index.js';
import { FakeClock, flush, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { useRedisBehindProxy } from '../support/redis-outage.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const variants: [string, RedisOptions][] = [
  ['default ioredis options', {}],
  ['maxRetriesPerRequest: null', { maxRetriesPerRequest: null }],
];

const KEY = 'tandem:checkpoint:';

describe.each(variants)('Redis checkpoint saves across an outage (%s)', (_name, base) => {
  const redis = useRedisBehindProxy(base);
  const { outage, recovery } = redis;
  let client: Redis;
  let admin: Redis;
  let proxy: TcpProxy;
  beforeEach(() => {
    ({ client, admin, proxy } = redis);
  });

  const stored = async (runId: string) => JSON.parse((await admin.get(KEY + runId)) ?? 'null')?.state;

  it('a save that failed while Redis was down is not written when Redis returns', async () => {
    const clock = new FakeClock();
    const store = new RedisCheckpointStore({ client, clock });
    await store.save('run_1', { v: 1 });
    await outage();

    await expect(clock.run(store.save('run_1', { v: 2 }))).rejects.toMatchObject({
      name: 'CheckpointError',
      kind: 'io',
    });
    await recovery();
    expect(await stored('run_1')).toEqual({ v: 1 });
    await store.save('run_1', { v: 3 });
    expect(await stored('run_1')).toEqual({ v: 3 });
  });

  it('a save in flight when the connection drops is not resent by a connection the store created', async () => {
    const clock = new FakeClock();
    const store = new RedisCheckpointStore({
      connection: { port: proxy.port, ...base, retryStrategy: () => 5 },
      clock,
    });
    try {
      await store.save('run_1', { v: 1 });
      // Redis holds writes, so the next save reaches it and waits there unanswered.
      await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      const saving = store.save('run_1', { v: 2 });
      while (!String(await admin.call('CLIENT', 'LIST')).includes('cmd=set')) await flush();
      await proxy.cut();
      await expect(clock.run(saving)).rejects.toMatchObject({ kind: 'io' });
      await admin.call('CLIENT', 'UNPAUSE');
      await proxy.restore();

      // Ordered after anything the connection resends on reconnect.
      expect(await store.load('run_1')).toEqual({ v: 1 });
    } finally {
      await store.close();
    }
  });

  it("with onCheckpointError 'fail', the stored state is the last one the run was told was saved", async () => {
    const storeClock = new FakeClock();
    const store = new RedisCheckpointStore({ client, clock: storeClock });
    let cut!: () => void;
    const isCut = new Promise<void>((resolve) => {
      cut = resolve;
    });
    const unplug = defineTool({
      name: 'unplug',
      description: 'Takes Redis away',
      parameters: z.object({}),
      execute: async () => {
        await outage();
        cut();
        return 'unplugged';
      },
    });
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "one call"}' }]),
        executor: new ScriptedModel([{ toolCalls: [{ name: 'unplug', args: {} }] }, { text: 'done' }]),
        verifier: false,
      },
      planning: { classify: 'llm' },
      tools: [unplug],
      checkpoints: { store, onError: 'fail' },
      runtime: testRuntime(),
    });
    const run = orchestrator.run('Unplug Redis');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    let settled = false;
    // A failed run resolves with its typed error (docs/results.md).
    const outcome = run.result.then((result) => result.error);
    void outcome.then(() => (settled = true));
    await isCut;
    // Every save from now on waits for a connection that does not come: let their deadlines pass.
    while (!settled) {
      await storeClock.advance(2_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await outcome).toMatchObject({ name: 'CheckpointError', kind: 'io' });
    const failures = events.filter(
      (e) => e.type === 'stage' && e.name === 'checkpoint' && e.status === 'failed',
    );
    expect(failures.length).toBeGreaterThan(0);

    await recovery();
    const state = (await stored(run.runId)) as RunState;
    // The last save that succeeded: the model's turn calling the tool, before its result and the failure.
    expect(state.status).toBe('running');
    expect(state.conversations.main?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
