/**
 * In-memory recall bench: top-k over 100 000 stored vectors of one user (the
 * exact cosine scan of `InMemoryMemoryStore`), and what the same store costs
 * with the vectors spread over 100 users (a query reads only its user's).
 * Medians of repeated queries, milliseconds.
 * Run: `npx tsx bench/memory-recall.ts [--vectors 100000] [--dims 256] [--topk 5]`.
 */
import { performance } from 'node:perf_hooks';
import { InMemoryMemoryStore } from '../src/state/in-memory-memory-store.js';
import type { VectorRecord } from '../src/state/memory-store.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const VECTORS = arg('vectors', 100_000);
const DIMS = arg('dims', 256);
const TOP_K = arg('topk', 5);

/** A deterministic pseudo-random unit vector (xorshift), so runs compare. */
function vectorOf(seed: number): number[] {
  let x = seed * 2654435761 + 1;
  const v = new Array<number>(DIMS);
  let norm = 0;
  for (let i = 0; i < DIMS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    v[i] = ((x >>> 0) / 0xffffffff) * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  return v.map((n) => n / Math.sqrt(norm));
}

async function fill(store: InMemoryMemoryStore, users: number): Promise<void> {
  const batch: VectorRecord[] = [];
  for (let i = 0; i < VECTORS; i++) {
    const resourceId = `u${i % users}`;
    batch.push({
      id: `v${i}`,
      vector: vectorOf(i + 1),
      resourceId,
      threadId: `t${i % 50}`,
      text: `m${i}`,
      createdAt: i,
    });
    if (batch.length === 1_000) await store.upsert(batch.splice(0));
  }
  await store.upsert(batch);
}

/**
 * Median wall and CPU milliseconds of `fn`: on a loaded machine the wall time
 * counts other processes' turns, the CPU time only this query's work.
 */
async function median(
  runs: number,
  fn: (i: number) => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < 3; i++) await fn(-1 - i);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await fn(i);
    const { user, system } = process.cpuUsage(used);
    wall.push(performance.now() - start);
    cpu.push((user + system) / 1000);
  }
  const mid = (xs: number[]) => Math.round(xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]! * 100) / 100;
  return { wall: mid(wall), cpu: mid(cpu) };
}

const oneUser = new InMemoryMemoryStore();
let start = performance.now();
await fill(oneUser, 1);
const fillMs = Math.round(performance.now() - start);
const query = (store: InMemoryMemoryStore, resourceId: string) => (i: number) =>
  store.query({ vector: vectorOf(1_000_000 + i), topK: TOP_K, resourceId, excludeThreadId: 't0' });
const single = await median(21, query(oneUser, 'u0'));

const manyUsers = new InMemoryMemoryStore();
start = performance.now();
await fill(manyUsers, 100);
const spread = await median(21, query(manyUsers, 'u7'));

console.log(
  JSON.stringify({
    vectors: VECTORS,
    dims: DIMS,
    topK: TOP_K,
    fillMs,
    recallOneUserMs: single,
    recallOf100UsersMs: spread,
  }),
);
