/**
 * `kill -9` of a process in the middle of appending leaves a readable,
 * gap-free session: each append is one script Redis runs whole or not at
 * all, whatever happens to the client.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/redis/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

const fixture = fileURLToPath(new URL('./fixtures/append-loop.ts', import.meta.url));
const BATCH = 50;
let server: RedisServer;
let admin: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});
afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
});

/**
 * Starts the appender and kills it as soon as Redis holds more than `batches`
 * batches: the moment a writer whose batches are not atomic would be caught
 * with one half-written.
 */
async function appendUntilKilled(threadId: string, batches: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, server.url, threadId, String(BATCH)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const key = `tandem:session:items:${threadId}`;
  while (child.exitCode === null && (await admin.llen(key)) <= batches * BATCH) {
    // Polls Redis itself: no timer decides when the kill lands.
  }
  child.kill('SIGKILL');
  if ((await exited) !== 'SIGKILL') throw new Error(`the appender exited on its own:\n${errors}`);
}

it('a session appended to by a process killed with SIGKILL loads gap-free, every batch whole', async () => {
  const store = new RedisSessionStore({ connection: server.url });
  try {
    for (const threadId of ['t_kill_1', 't_kill_2', 't_kill_3']) {
      await appendUntilKilled(threadId, 3);
      const { items, lastSeq } = await store.session(threadId).load();
      expect(lastSeq).toBeGreaterThan(3 * BATCH);
      expect(lastSeq % BATCH).toBe(0);
      expect(items.map((item) => item.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
      const labels = items.map((item) => String(item.message.content).split(' ')[0]);
      expect(labels).toEqual(
        Array.from({ length: lastSeq }, (_, i) => `b${Math.floor(i / BATCH)}:${i % BATCH}`),
      );
      expect((await store.session(threadId).append([{ role: 'user', content: 'after' }]))[0]?.seq).toBe(
        lastSeq + 1,
      );
    }
  } finally {
    await store.close();
  }
});
