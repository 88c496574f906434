/**
 * A run on a Redis session while Redis goes away mid-run: the run's result
 * is still returned, the failed append is a typed error naming the server,
 * and the thread holds each message once, in order, nothing half-written.
 * Redis sits behind a TCP proxy, so the outage keeps the server's data.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, SessionError, type TandemEvent } from '../../src/index.js';
import { RedisSessionStore } from '../../src/redis/index.js';
import { FakeClock, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { outageOf } from '../support/redis-outage.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let server: RedisServer;
let proxy: TcpProxy;
let client: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startTcpProxy(server.port);
  // The test owns this client, so it listens to its errors itself.
  client = new Redis({ port: proxy.port, retryStrategy: () => 5 }).on('error', () => {});
  await client.ping();
});
afterAll(async () => {
  client?.disconnect();
  await proxy?.close();
  await server?.stop();
});

const outage = () => outageOf(client, proxy).outage();
const recovery = () => outageOf(client, proxy).recovery();

it('returns the result when Redis goes away mid-run; the failed turn is appended whole once Redis is back', async () => {
  const storeClock = new FakeClock();
  let unplugged = false;
  const session = new RedisSessionStore({ client, clock: storeClock }).session('t_run', {
    resourceId: 'r_run',
  });
  const unplug = defineTool({
    name: 'unplug',
    description: 'Takes Redis away',
    parameters: z.object({}),
    execute: async () => {
      await outage();
      unplugged = true;
      return 'unplugged';
    },
  });
  const model = new ScriptedModel([
    { toolCalls: [{ name: 'unplug', args: {} }] },
    // Called once the tool turn's append has failed: Redis comes back before the answer.
    async () => {
      await recovery();
      return { text: 'done' };
    },
  ]);
  const run = new Executor({ model, tools: [unplug], runtime: testRuntime() }).run('Unplug Redis', {
    session,
  });
  const events: TandemEvent[] = [];
  run.on('*', (event) => events.push(event));
  const failed = () =>
    events.some((e) => e.type === 'stage' && e.name === 'session' && e.status === 'failed');
  // The tool turn's append waits for a connection that does not come: let its deadline pass.
  while (!failed()) {
    // Only the append is waiting on the store's clock once Redis is gone; the load before it is not.
    if (unplugged) await storeClock.advance(2_000);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const result = await run.result;

  expect(result.status).toBe('success');
  expect(result.output).toBe('done');
  expect(result.session?.error).toBeInstanceOf(SessionError);
  expect(result.session?.error).toMatchObject({
    kind: 'unavailable',
    message: expect.stringContaining(`Redis at localhost:${proxy.port} could not append to thread t_run`),
  });
  const { items } = await session.load();
  expect(items.map((item) => item.seq)).toEqual([1, 2, 3, 4]);
  expect(items.map((item) => item.message)).toEqual(result.messages);
});
