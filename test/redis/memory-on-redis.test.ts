/**
 * Working memory on Redis: `redisStores(...)` passed whole as `memory.store`
 * is found through its `workingMemory`, and two runs of one user updating
 * the notes at once never overwrite each other (the conditional write on
 * the real server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../src/index.js';
import { type RedisStores, redisStores } from '../../src/redis/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

let server: RedisServer;
let stores: RedisStores;
beforeAll(async () => {
  server = await startRedisServer();
  stores = await redisStores({ connection: server.url, keyPrefix: 'mem:' });
});
afterAll(async () => {
  await stores?.close();
  await server?.stop();
});

/** A model that writes `note` once its peer has read the notes too, merging when told of a conflict. */
function writer(note: string, bothRead: Promise<void>, read: () => void): ScriptEntry {
  return async (request) => {
    const last = JSON.stringify(request.messages.at(-1));
    if (last.includes('Working memory saved')) return { text: `${note} saved` };
    if (last.includes('changed by another conversation')) {
      return {
        toolCalls: [
          // The error shows the stored notes (JSON inside the JSON of the message): merge them in.
          {
            name: 'update_working_memory',
            args: { memory: `${/holds: \\"(\w+)\\"/.exec(last)?.[1]}+${note}` },
          },
        ],
      };
    }
    read();
    await bothRead;
    return { toolCalls: [{ name: 'update_working_memory', args: { memory: note } }] };
  };
}

describe('memory on Redis', () => {
  it('keeps both of two concurrent updates of one user', async () => {
    let reads = 0;
    let release: () => void = () => {};
    const bothRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    const read = () => {
      if (++reads === 2) release();
    };
    const run = (note: string) =>
      new Executor({
        model: new ScriptedModel([writer(note, bothRead, read)], { loop: true }),
        memory: { store: stores },
        runtime: testRuntime(),
      }).run(`remember ${note}`, { resourceId: 'redis-user', threadId: note }).result;
    const results = await Promise.all([run('A'), run('B')]);
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
    const stored = await stores.workingMemory.get('redis-user');
    expect(stored?.version).toBe(2);
    expect(['A+B', 'B+A']).toContain(stored?.value);
  });
});
