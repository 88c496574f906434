/**
 * Redis session bench, the figures of bench/sessions.ts for the Redis store:
 * appending a turn (2 messages) to a thread of 100 000 messages vs an empty
 * one, loading the last 50 of 100 000 vs of 50 (and after a summary).
 * Medians of repeated runs, milliseconds. Starts a `redis-server` on a free
 * port (REDIS_SERVER overrides the binary) unless `--redis <url>` is given.
 * Run: `npx tsx bench/sessions-redis.ts [--redis redis://…]`.
 */
import { RedisSessionStore } from '../src/redis/index.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { median as medianOf, turn } from './session-turns.js';

// Redis round trips vary more at first: a longer warm-up.
const median = (runs: number, fn: (i: number) => Promise<unknown>) => medianOf(runs, fn, 20);

const LONG = 100_000;
const given = process.argv.indexOf('--redis');
const server = given < 0 ? await startRedisServer() : undefined;
const url = server?.url ?? (process.argv[given + 1] as string);
// A prefix of its own, so a bench against your Redis never touches other keys.
const store = new RedisSessionStore({ connection: url, keyPrefix: `tandem-bench-${process.pid}:` });

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
