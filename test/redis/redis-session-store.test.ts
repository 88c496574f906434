/**
 * The Redis session and working-memory stores on a real redis-server: the
 * shared contracts, then what only Redis shows (its key layout, a corrupt
 * row, one client for every store).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore, RedisWorkingMemoryStore, redisStores } from '../../src/redis/index.js';
import { workingMemoryStoreContract } from '../contracts/memory-store-contract.js';
import { sessionStoreContract } from '../contracts/session-store-contract.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

let server: RedisServer;
let client: Redis;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.url);
});
afterAll(async () => {
  await client?.quit();
  await server?.stop();
});

// Each store gets its own prefix, so every contract case starts from an empty store.
sessionStoreContract(
  'RedisSessionStore',
  () => new RedisSessionStore({ client, keyPrefix: `s${++prefixes}:` }),
);
workingMemoryStoreContract(
  'RedisWorkingMemoryStore',
  () => new RedisWorkingMemoryStore({ client, keyPrefix: `m${++prefixes}:` }),
);

const user = (text: string) => ({ role: 'user' as const, content: text });

describe('RedisSessionStore', () => {
  it('keeps a thread as a list at tandem:session:items:<threadId>, one item per entry', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'tandem:session:' }).session('t_layout', {
      resourceId: 'r_layout',
    });
    await session.append([user('a'), user('b')], { now: 5 });
    const entries = await client.lrange('tandem:session:items:t_layout', 0, -1);
    expect(entries.map((text) => JSON.parse(text))).toEqual([
      { v: 1, message: user('a'), createdAt: 5 },
      { v: 1, message: user('b'), createdAt: 5 },
    ]);
    expect(await client.zrange('tandem:session:threads:r_layout', 0, -1, 'WITHSCORES')).toEqual([
      't_layout',
      '1',
    ]);
  });

  it('names the thread and seq of a corrupt item; items outside it still load', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'corrupt:' }).session('t_bad');
    await session.append([user('1'), user('2'), user('3')]);
    await client.lset('corrupt:items:t_bad', 1, '{"v":1,"message":');
    await expect(session.load()).rejects.toMatchObject({
      name: 'SessionError',
      kind: 'corrupt',
      message: expect.stringMatching(/item 2 of thread "t_bad"/),
    });
    expect((await session.load({ limit: 1 })).items.map((item) => item.message)).toEqual([user('3')]);
  });

  it('refuses an item written by a newer format as unsupported_version', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'future:' }).session('t_new');
    await client.rpush('future:items:t_new', JSON.stringify({ v: 2, message: user('x'), createdAt: 1 }));
    await expect(session.load()).rejects.toMatchObject({
      kind: 'unsupported_version',
      message: expect.stringMatching(/item 1 of thread "t_new" has format version 2/),
    });
  });

  it('reports a key of another type as corrupt, naming the thread', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'wrongtype:' }).session('t_string');
    await client.set('wrongtype:items:t_string', 'not a list');
    await expect(session.load()).rejects.toMatchObject({
      name: 'SessionError',
      kind: 'corrupt',
      message: expect.stringMatching(/could not load thread t_string: .*WRONGTYPE/),
    });
    await expect(session.append([user('x')])).rejects.toMatchObject({ kind: 'corrupt' });
  });

  it('reports a corrupt summary naming its thread', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'badsum:' }).session('t_sum');
    await session.append([user('1'), user('2'), user('3')]);
    await client.hset('badsum:summary:t_sum', 'text', 'x', 'throughSeq', '1.5');
    await expect(session.load()).rejects.toMatchObject({
      kind: 'corrupt',
      message: /summary of thread "t_sum"/,
    });
  });

  it('loads the last items of a 100 000-item thread with one bounded LRANGE', async () => {
    const session = new RedisSessionStore({ client, keyPrefix: 'long:' }).session('t_long');
    const batch = Array.from({ length: 10_000 }, (_, i) => user(`m${i}`));
    for (let i = 0; i < 10; i++) await session.append(batch);
    const { items, lastSeq } = await session.load({ limit: 50 });
    expect(lastSeq).toBe(100_000);
    expect(items.map((item) => item.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 99_951 + i));
  });

  it('keeps batches of 20 appenders on 20 connections contiguous and gap-free', async () => {
    const stores = Array.from(
      { length: 20 },
      () => new RedisSessionStore({ connection: server.url, keyPrefix: 'conns:' }),
    );
    try {
      const batches = await Promise.all(
        stores.map((store, w) =>
          store.session('t_conns').append([user(`w${w}:0`), user(`w${w}:1`), user(`w${w}:2`)]),
        ),
      );
      const { items } = await new RedisSessionStore({ client, keyPrefix: 'conns:' })
        .session('t_conns')
        .load();
      expect(items.map((item) => item.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      for (const [w, batch] of batches.entries()) {
        const start = batch[0]?.seq ?? 0;
        const stored = items.slice(start - 1, start + 2).map((item) => item.message.content);
        expect(stored).toEqual([`w${w}:0`, `w${w}:1`, `w${w}:2`]);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('creates and closes its own client from a URL; rejects bad options', async () => {
    const store = new RedisSessionStore({ connection: server.url, keyPrefix: 'own:' });
    await store.session('t_own').append([user('hi')]);
    await store.close();
    expect(await client.llen('own:items:t_own')).toBe(1);
    expect(() => new RedisSessionStore({})).toThrow(expect.objectContaining({ kind: 'config' }));
    expect(() => new RedisWorkingMemoryStore({ client, commandTimeoutMs: 0 })).toThrow(
      expect.objectContaining({ kind: 'config' }),
    );
  });
});

describe('RedisWorkingMemoryStore', () => {
  it('reports a corrupt record naming its resource', async () => {
    await client.hset('tandem:memory:r_bad', 'value', 'not json', 'version', '1', 'updatedAt', '1');
    await expect(new RedisWorkingMemoryStore({ client }).get('r_bad')).rejects.toMatchObject({
      kind: 'corrupt',
      message: /resource "r_bad"/,
    });
  });
});

describe('redisStores', () => {
  it('puts checkpoints, sessions and working memory on one connection and deletes a resource from all', async () => {
    const stores = await redisStores({ connection: server.url, keyPrefix: 'app:' });
    try {
      await stores.checkpoints.save('run_1', { step: 1, resourceId: 'r_1' });
      await stores.checkpoints.save('run_2', { step: 1, resourceId: 'r_2' });
      await stores.sessions.session('t_1', { resourceId: 'r_1' }).append([user('hi')]);
      await stores.sessions.session('t_2', { resourceId: 'r_2' }).append([user('kept')]);
      await stores.workingMemory.set('r_1', { name: 'Ada' });
      await stores.workingMemory.set('r_2', { name: 'Bob' });
      expect((await client.keys('app:*')).sort()).toEqual([
        'app:checkpoint:run_1',
        'app:checkpoint:run_2',
        'app:memory:r_1',
        'app:memory:r_2',
        'app:session:activity',
        'app:session:items:t_1',
        'app:session:items:t_2',
        'app:session:meta:t_1',
        'app:session:meta:t_2',
        'app:session:threads:r_1',
        'app:session:threads:r_2',
      ]);
      const clients = String(await client.call('CLIENT', 'LIST'))
        .trim()
        .split('\n');
      expect(clients).toHaveLength(2);

      expect(await stores.deleteResource('r_1')).toEqual({ stores: 3, checkpoints: ['run_1'] });
      expect(await stores.checkpoints.list()).toEqual(['run_2']);
      expect(await stores.workingMemory.get('r_1')).toBeUndefined();
      expect(await stores.sessions.threads('r_1')).toEqual([]);
      expect(await stores.sessions.threads('r_2')).toEqual(['t_2']);
      expect(await stores.workingMemory.get('r_2')).toMatchObject({ value: { name: 'Bob' } });
    } finally {
      await stores.close();
    }
  });
});
