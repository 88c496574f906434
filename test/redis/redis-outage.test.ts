/**
 * Redis going down under the adapters: approval waits end at their timeout or
 * abort, the model reads a clear sentence, and no connection the adapters
 * own logs "Unhandled error event" while it reconnects. Each case runs with
 * default ioredis options and with `maxRetriesPerRequest: null` (what BullMQ
 * connections require), which queues commands for as long as Redis is down.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OwnedConnections } from '../../src/queue/connection.js';
import { RedisCheckpointStore } from '../../src/redis/redis-checkpoint-store.js';
import { RedisInterruptBus } from '../../src/redis/redis-interrupt-bus.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import {
  buildInterrupt,
  InterruptError,
  type InterruptRequest,
} from '../../src/safety/approvals/interrupts.js';
import { FakeClock, flush } from '../../src/testing/fake-clock.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { collectingBus, simpleTool, toolCall } from '../tools/helpers.js';

const variants: [string, RedisOptions][] = [
  ['default ioredis options', {}],
  ['maxRetriesPerRequest: null', { maxRetriesPerRequest: null }],
];

/** Counts reconnect attempts of every connection made from these options, without sleeping. */
function reconnects(base: RedisOptions) {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const options: RedisOptions = {
    ...base,
    retryStrategy: () => {
      count++;
      for (const w of waiters.filter((w) => count >= w.n)) w.resolve();
      return 5;
    },
  };
  const atLeast = (n: number) =>
    count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
  return { options, atLeast };
}

/** Resolves when `client` has seen its connection drop. */
function disconnected(client: Redis): Promise<void> {
  return client.status === 'ready'
    ? new Promise((resolve) => client.once('reconnecting', resolve))
    : Promise.resolve();
}

function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return flush().then(() => settled);
}

let n = 0;
function approval(timeoutMs: number): InterruptRequest {
  n++;
  return buildInterrupt(
    { kind: 'approval', title: 'Deploy?', timeoutMs },
    { id: `int_out${n.toString(16).padStart(9, '0')}`, runId: 'run_outage', createdAt: 0 },
  );
}

/** Waits until the waiter is subscribed and every setup command answered (only its timer is left). */
async function subscribed(admin: Redis, clock: FakeClock, id: string): Promise<void> {
  while (Number((await admin.pubsub('NUMSUB', `hitl:response:${id}`))[1]) === 0) await flush();
  while (clock.pending > 1) await flush();
}

describe.each(variants)('Redis outage during an approval wait (%s)', (_name, base) => {
  let server: RedisServer;
  let client: Redis;
  let admin: Redis;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    server = await startRedisServer();
    // The test owns this client, so it listens to its errors itself.
    client = new Redis({ port: server.port, ...base, retryStrategy: () => 5 }).on('error', () => {});
    admin = new Redis(server.url).on('error', () => {});
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    client.disconnect();
    admin.disconnect();
    await server.stop();
  });

  function newBus(clock: FakeClock): RedisInterruptBus {
    const bus = new RedisInterruptBus({ client, clock });
    // Closing a connection Redis stopped answering waits out its QUIT deadline, on this clock.
    closers.push(() => clock.run(bus.close()));
    return bus;
  }

  it('a wait ends at its timeout with no answer (the default) when Redis stopped mid-wait', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const request = approval(5_000);
    await bus.publish(request);
    const waiting = bus.waitFor(request.id, { timeoutMs: 5_000 });
    await subscribed(admin, clock, request.id);
    await server.stop();
    await disconnected(client);

    await clock.advance(4_999);
    expect(await settledYet(waiting)).toBe(false);
    await clock.advance(1);
    expect(await settledYet(waiting)).toBe(true);
    expect(await waiting).toBeUndefined();
  });

  it('an abort ends the wait at once when Redis stopped mid-wait', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const request = approval(60_000);
    await bus.publish(request);
    const controller = new AbortController();
    const waiting = bus.waitFor(request.id, { timeoutMs: 60_000, signal: controller.signal });
    await subscribed(admin, clock, request.id);
    await server.stop();
    await disconnected(client);

    controller.abort();
    expect(await settledYet(waiting)).toBe(true);
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('a timed-out wait on a stalled (connected, silent) Redis settles within commandTimeoutMs', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const request = approval(5_000);
    await bus.publish(request);
    const waiting = bus.waitFor(request.id, { timeoutMs: 5_000 });
    await subscribed(admin, clock, request.id);
    await admin.call('CLIENT', 'PAUSE', '60000', 'ALL');

    await clock.advance(5_000);
    expect(await settledYet(waiting)).toBe(false);
    await clock.advance(2_000);
    expect(await settledYet(waiting)).toBe(true);
    expect(await waiting).toBeUndefined();
  });

  it('queue connections close within their QUIT deadline on a stalled (connected, silent) Redis', async () => {
    const clock = new FakeClock();
    const queue = new OwnedConnections({ port: server.port }, clock);
    const clients = [await queue.main(), await queue.subscriber()];
    for (const c of clients) await c.ping();
    await admin.call('CLIENT', 'PAUSE', '60000', 'ALL');

    const closing = queue.close();
    expect(await settledYet(closing)).toBe(false);
    await clock.advance(2_000);
    expect(await settledYet(closing)).toBe(true);
    expect(clients.map((c) => c.status)).not.toContain('ready');
  });

  it('the approval gate applies the timeout default and the model reads why, not a client error', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const ran: string[] = [];
    const deploy = simpleTool('deploy', () => ran.push('deploy'), { risk: 'risky' });
    const approvals = new ApprovalGate({ bus, runtime: { clock }, timeoutMs: 10_000 });
    const { bus: events, events: seen } = collectingBus(clock);
    let interruptId = '';
    events.on('interrupt', (e) => {
      interruptId = e.interrupt.id;
    });
    const outcomes = new ToolRunner({ clock }).run(
      (await prepareToolCalls(new ToolRegistry([deploy]), [toolCall('deploy', {}, 'call_1')])).calls,
      { signal: new AbortController().signal, emit: events, runId: 'run_x', gate: approvals.gate },
    );
    while (!interruptId) await flush();
    await subscribed(admin, clock, interruptId);
    await server.stop();
    await disconnected(client);
    await clock.advance(10_000);

    const [outcome] = await outcomes;
    expect(outcome?.output).toBe(
      'No answer to the approval request for deploy within 10 s; the default "deny" was applied. The tool was not executed.',
    );
    expect(ran).toEqual([]);
    expect(seen.find((e) => e.type === 'interrupt_response')).toMatchObject({
      action: 'deny',
      timedOut: true,
    });
  });

  it('when Redis is down before the question is put, the gate applies the default with a clear message', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    await server.stop();
    await disconnected(client);
    const ran: string[] = [];
    const deploy = simpleTool('deploy', () => ran.push('deploy'), { risk: 'risky' });
    const calls = (await prepareToolCalls(new ToolRegistry([deploy]), [toolCall('deploy', {}, 'call_1')]))
      .calls;
    const run = (defaultAction: 'approve' | 'deny') =>
      clock.run(
        new ToolRunner({ clock }).run(calls, {
          signal: new AbortController().signal,
          emit: collectingBus(clock).bus,
          runId: 'run_x',
          gate: new ApprovalGate({ bus, runtime: { clock }, defaultAction }).gate,
        }),
      );

    const [denied] = await run('deny');
    expect(denied?.output).toBe(
      'The approval request for deploy could not reach a human: the approval service is unavailable. The default "deny" was applied. The tool was not executed.',
    );
    expect(denied?.output).not.toMatch(/retries|ECONNREFUSED|ioredis|Error:/);
    expect(ran).toEqual([]);
    const [approved] = await run('approve');
    expect(approved).toMatchObject({ isError: false });
    expect(ran).toEqual(['deploy']);
  });

  it('bus and store operations fail with typed errors within commandTimeoutMs while Redis is down', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const store = new RedisCheckpointStore({ client, clock });
    await server.stop();
    await disconnected(client);
    await expect(clock.run(bus.publish(approval(1_000)))).rejects.toMatchObject({
      name: 'InterruptError',
      kind: 'bus',
    });
    await expect(clock.run(bus.respond('int_x', { action: 'approve' }))).rejects.toMatchObject({
      kind: 'bus',
    });
    await expect(clock.run(bus.pending('run_x'))).rejects.toMatchObject({ kind: 'bus' });
    await expect(clock.run(store.save('run_x', { v: 1 }))).rejects.toMatchObject({
      name: 'CheckpointError',
      kind: 'io',
    });
  });

  it('connections the adapters own log no unhandled error event while Redis is down, and close at once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const watch = reconnects({ port: server.port, ...base });
      const bus = new RedisInterruptBus({ connection: watch.options, clock: new FakeClock() });
      const store = new RedisCheckpointStore({ connection: watch.options });
      const queue = new OwnedConnections(watch.options);
      const request = approval(60_000);
      await bus.publish(request);
      const controller = new AbortController();
      const waiting = bus.waitFor(request.id, { timeoutMs: 60_000, signal: controller.signal });
      while (Number((await admin.pubsub('NUMSUB', `hitl:response:${request.id}`))[1]) === 0) await flush();
      await store.save('run_1', {});
      const queueClients = [await queue.main(), await queue.subscriber()];
      for (const c of queueClients) await c.ping();

      await server.stop();
      // Five connections, each through several failed reconnects (each failure is an `error` event).
      await watch.atLeast(20);
      controller.abort();
      await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
      await bus.close();
      await store.close();
      // The queue's own connections close while Redis is down: QUIT would wait for a reconnect forever.
      await queue.close();
    } finally {
      process.off('uncaughtException', onUncaught);
      errors.mockRestore();
    }
    expect(errors.mock.calls.filter((args) => String(args[0]).includes('Unhandled error event'))).toEqual([]);
    expect(uncaught).toEqual([]);
  });
});

describe('approval gate with a failing bus', () => {
  it('an "approve always" still runs the call when the bus fails to list the run’s other requests', async () => {
    class ListFails extends MemoryInterruptBus {
      override async pending(): Promise<InterruptRequest[]> {
        throw new InterruptError('bus', 'Interrupt bus could not list pending requests: Redis failed');
      }
    }
    const clock = new FakeClock();
    const bus = new ListFails({ clock });
    const ran: string[] = [];
    const deploy = simpleTool('deploy', () => ran.push('deploy'), { risk: 'risky' });
    const approvals = new ApprovalGate({ bus, runtime: { clock } });
    const { bus: events } = collectingBus(clock);
    events.on('interrupt', (e) => void bus.respond(e.interrupt.id, { action: 'approve_always' }));
    const calls = (await prepareToolCalls(new ToolRegistry([deploy]), [toolCall('deploy', {}, 'call_1')]))
      .calls;
    const [outcome] = await new ToolRunner({ clock }).run(calls, {
      signal: new AbortController().signal,
      emit: events,
      runId: 'run_x',
      gate: approvals.gate,
    });
    expect(outcome).toMatchObject({ isError: false });
    expect(ran).toEqual(['deploy']);
    expect(approvals.approvedScopes()).toEqual(['deploy']);
  });
});
