import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCheckpointStore } from '../../src/redis/redis-checkpoint-store.js';
import { checkpointStoreContract } from '../state/checkpoint-contract.js';
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

// Each store gets its own prefix so contract cases do not see each other's keys.
checkpointStoreContract(
  'RedisCheckpointStore',
  () => new RedisCheckpointStore({ client, keyPrefix: `t${++prefixes}:checkpoint:` }),
);

describe('Redis test support', () => {
  it('fails loudly, not silently, when redis-server is missing', async () => {
    await expect(startRedisServer('/nonexistent/redis-server')).rejects.toThrow(/redis-server is required/);
  });
});

describe('RedisCheckpointStore', () => {
  it('stores a JSON string at tandem:checkpoint:<runId>', async () => {
    const store = new RedisCheckpointStore({ client });
    await store.save('run_key', { step: 2 });
    const raw = await client.get('tandem:checkpoint:run_key');
    expect(JSON.parse(raw ?? 'null')).toEqual({
      format: 'tandem-checkpoint/1',
      runId: 'run_key',
      state: { step: 2 },
    });
    expect(await client.pttl('tandem:checkpoint:run_key')).toBe(-1);
    await store.delete('run_key');
  });

  it('sets the TTL on every save', async () => {
    const store = new RedisCheckpointStore({ client, ttlMs: 60_000, keyPrefix: 'ttl:' });
    await store.save('run_ttl', { a: 1 });
    const ttl = await client.pttl('ttl:run_ttl');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('lists by SCAN with glob characters in the prefix taken literally', async () => {
    const star = new RedisCheckpointStore({ client, keyPrefix: 'glob*:' });
    const plain = new RedisCheckpointStore({ client, keyPrefix: 'globX:' });
    await star.save('a', {});
    await plain.save('b', {});
    expect(await star.list()).toEqual(['a']);
  });

  it('creates and closes its own client from a URL', async () => {
    const store = new RedisCheckpointStore({ connection: server.url, keyPrefix: 'own:' });
    await store.save('run_1', { ok: true });
    expect(await store.load('run_1')).toEqual({ ok: true });
    await store.close();
    expect(await client.get('own:run_1')).not.toBeNull();
  });

  it('reports a corrupt value and rejects bad options', async () => {
    await client.set('tandem:checkpoint:bad', 'not json');
    await expect(new RedisCheckpointStore({ client }).load('bad')).rejects.toMatchObject({ kind: 'corrupt' });
    expect(() => new RedisCheckpointStore({})).toThrow(expect.objectContaining({ kind: 'config' }));
    expect(() => new RedisCheckpointStore({ client, ttlMs: 0 })).toThrow(
      expect.objectContaining({ kind: 'config' }),
    );
  });
});
