/**
 * Redis session bench, the figures of bench/sessions.ts for the Redis store:
 * appending a turn (2 messages) to a thread of 100 000 messages vs an empty
 * one, loading the last 50 of 100 000 vs of 50 (and after a summary).
 * Medians of repeated runs, milliseconds. Starts a `redis-server` on a free
 * port (REDIS_SERVER overrides the binary) unless `--redis <url>` is given.
 * Run: `npx tsx bench/sessions-redis.ts [--redis redis://…]`.
 */
import { performance } from 'node:perf_hooks';
import type { Message } from '../src/core/messages.js';
import { RedisSessionStore } from '../src/redis/index.js';
import { startRedisServer } from '../test/support/redis-server.js';

const LONG = 100_000;
const given = process.argv.indexOf('--redis');
const server = given < 0 ? await startRedisServer() : undefined;
const url = server?.url ?? (process.argv[given + 1] as string);
// A prefix of its own, so a bench against your Redis never touches other keys.
const store = new RedisSessionStore({ connection: url, keyPrefix: `tandem-bench-${process.pid}:` });

const turn = (n: number): Message[] => [
  { role: 'user', content: `question ${n}: ${'lorem ipsum '.repeat(8)}` },
  { role: 'assistant', content: [{ type: 'text', text: `answer ${n}: ${'dolor sit amet '.repeat(12)}` }] },
];

async function median(runs: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 1000) / 1000;
}

try {
  const long = store.session('long');
  for (let done = 0; done < LONG; done += 1000) {
    await long.append(Array.from({ length: 500 }, (_, i) => turn(done + i)).flat());
  }
  const short = store.session('short');
  await short.append(Array.from({ length: 25 }, (_, i) => turn(i)).flat());
  const rows: [string, number][] = [
    ['append a turn, empty thread', await median(300, (i) => store.session(`empty-${i}`).append(turn(i)))],
    ['append a turn, 100 000-message thread', await median(300, (i) => long.append(turn(i)))],
    ['load last 50 of 50', await median(300, () => short.load({ limit: 50 }))],
    ['load last 50 of 100 000', await median(300, () => long.load({ limit: 50 }))],
  ];
  await long.saveSummary({ text: 'the first half', throughSeq: LONG / 2, createdAt: 0 });
  rows.push(['load last 50 of 100 000, after a summary', await median(300, () => long.load({ limit: 50 }))]);
  console.log(`Redis session store (node ${process.version}), medians in ms`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(44)} ${ms}`);
  for (const id of ['long', 'short', ...Array.from({ length: 320 }, (_, i) => `empty-${i - 20}`)]) {
    await store.session(id).clear();
  }
} finally {
  await store.close();
  await server?.stop();
}
