/**
 * A session append (or working-memory write) that failed while Redis was
 * down names the server, wrote nothing, and never lands when Redis comes
 * back. Redis sits behind a TCP proxy, so cutting the proxy is an outage the
 * server's data survives.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { RedisSessionStore, RedisWorkingMemoryStore } from '../../src/redis/index.js';
import { FakeClock, flush } from '../../src/testing/index.js';
import { useRedisBehindProxy } from '../support/redis-outage.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const variants: [string, RedisOptions][] = [
  ['default ioredis options', {}],
  ['maxRetriesPerRequest: null', { maxRetriesPerRequest: null }],
];

const user = (text: string) => ({ role: 'user' as const, content: text });

describe.each(variants)('Redis session writes across an outage (%s)', (_name, base) => {
  const redis = useRedisBehindProxy(base);
  const { outage, recovery } = redis;
  let client: Redis;
  let admin: Redis;
  let proxy: TcpProxy;
  beforeEach(() => {
    ({ client, admin, proxy } = redis);
  });

  it('an append that failed while Redis was down names host:port and is not written when Redis returns', async () => {
    const clock = new FakeClock();
    const session = new RedisSessionStore({ client, clock }).session('t_1', { resourceId: 'r_1' });
    await session.append([user('before')]);
    await outage();

    const failed = clock.run(session.append([user('lost 1'), user('lost 2')]));
    await expect(failed).rejects.toMatchObject({
      name: 'SessionError',
      kind: 'unavailable',
      message: expect.stringContaining(`Redis at localhost:${proxy.port} could not append to thread t_1`),
    });
    await recovery();
    expect(await admin.lrange('tandem:session:items:t_1', 0, -1)).toHaveLength(1);
    expect((await session.append([user('after')])).map((item) => item.seq)).toEqual([2]);
  });

  it('a working-memory write that failed while Redis was down is not written when Redis returns', async () => {
    const clock = new FakeClock();
    const memory = new RedisWorkingMemoryStore({ client, clock });
    await memory.set('r_1', 'v1');
    await outage();
    await expect(clock.run(memory.set('r_1', 'v2'))).rejects.toMatchObject({ kind: 'unavailable' });
    await recovery();
    expect(await memory.get('r_1')).toMatchObject({ value: 'v1', version: 1 });
  });

  it('an append in flight when the connection drops is not resent by a connection the store created', async () => {
    const clock = new FakeClock();
    const store = new RedisSessionStore({
      connection: { port: proxy.port, ...base, retryStrategy: () => 5 },
      clock,
    });
    try {
      const session = store.session('t_flight');
      await session.append([user('kept')]);
      // Redis holds writes (scripts included), so the next append reaches it and waits there unanswered.
      await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      const appending = session.append([user('in flight 1'), user('in flight 2')]);
      while (!String(await admin.call('CLIENT', 'LIST')).includes('cmd=eval')) await flush();
      await proxy.cut();
      await expect(clock.run(appending)).rejects.toMatchObject({ kind: 'unavailable' });
      await admin.call('CLIENT', 'UNPAUSE');
      await proxy.restore();

      // Ordered after anything the connection resends on reconnect.
      const { items, lastSeq } = await session.load();
      expect(lastSeq).toBe(1);
      expect(items.map((item) => item.message)).toEqual([user('kept')]);
    } finally {
      await store.close();
    }
  });
});
