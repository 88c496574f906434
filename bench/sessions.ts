/**
 * SQL store bench: appending a turn (2 messages) to a thread of 100 000
 * messages vs an empty one, loading the last 50 of 100 000 vs of 50, and
 * recall (top 5) over 100 000 stored 256-dimension vectors — on PGlite in
 * memory, and on a Postgres server when `--postgres <url>` is given.
 * Medians of repeated runs, milliseconds.
 * Run: `npx tsx bench/sessions.ts [--postgres postgres://…] [--no-pglite] [--vectors 100000] [--dims 256]`.
 */
import { openPgliteStore } from '../src/pglite/index.js';
import { openPostgresStore } from '../src/postgres/index.js';
import type { SqlStore } from '../src/sql/index.js';
import { median, turn } from './session-turns.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const LONG = 100_000;
const VECTORS = Number(arg('vectors') ?? 100_000);
const DIMS = Number(arg('dims') ?? 256);

/** Fills `threadId` with `count` messages (turns of 2) in batches of 1 000 (the bench measures reads and appends, not the fill). */
async function fill(store: SqlStore, threadId: string, count: number): Promise<void> {
  const session = store.session(threadId);
  for (let done = 0; done < count; done += 1000) {
    const turns = Math.min(500, Math.ceil((count - done) / 2));
    await session.append(Array.from({ length: turns }, (_, i) => turn(done + i)).flat());
  }
}

/** A deterministic pseudo-random unit-ish vector. */
function vectorOf(seed: number): number[] {
  let x = seed * 2654435761;
  return Array.from({ length: DIMS }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  });
}

async function bench(name: string, store: SqlStore): Promise<void> {
  await fill(store, 'long', LONG);
  const rows: [string, number][] = [];
  rows.push([
    'append a turn, empty thread',
    await median(50, (i) => store.session(`empty_${i}`).append(turn(i))),
  ]);
  rows.push([
    'append a turn, 100 000-message thread',
    await median(50, (i) => store.session('long').append(turn(i))),
  ]);
  await fill(store, 'short', 50);
  rows.push(['load last 50 of 50', await median(50, () => store.session('short').load({ limit: 50 }))]);
  rows.push(['load last 50 of 100 000', await median(50, () => store.session('long').load({ limit: 50 }))]);
  // Built in bulk after the fill, as an app importing history would: inserting
  // 100 000 vectors one HNSW insert at a time takes tens of minutes in WebAssembly.
  const pgvector = store.vectorMode === 'pgvector';
  const hnsw = `CREATE INDEX IF NOT EXISTS tandem_vectors_hnsw_${DIMS} ON tandem_vectors
    USING hnsw ((embedding::vector(${DIMS})) vector_cosine_ops) WHERE dims = ${DIMS}`;
  const fillStart = performance.now();
  for (let done = 0; done < VECTORS; done += 1000) {
    if (done === 1000 && pgvector) await store.client.query(`DROP INDEX tandem_vectors_hnsw_${DIMS}`);
    await store.vectors.upsert(
      Array.from({ length: 1000 }, (_, i) => ({
        id: `v${done + i}`,
        vector: vectorOf(done + i),
        resourceId: 'user',
        threadId: `thread_${(done + i) % 100}`,
        text: `message ${done + i}`,
        createdAt: done + i,
      })),
    );
  }
  const fillMs = performance.now() - fillStart;
  const indexStart = performance.now();
  if (pgvector) {
    await store.client.query("SET maintenance_work_mem = '512MB'");
    await store.client.query(hnsw);
    await store.client.query('ANALYZE tandem_vectors');
  }
  const indexMs = performance.now() - indexStart;
  rows.push([
    `recall top 5 of ${VECTORS} × ${DIMS}-dim vectors (${store.vectorMode})`,
    await median(30, (i) =>
      store.vectors.query({
        vector: vectorOf(VECTORS + 10 + i),
        topK: 5,
        resourceId: 'user',
        excludeThreadId: 'thread_1',
      }),
    ),
  ]);
  console.log(
    `\n${name}: vectors stored in ${(fillMs / 1000).toFixed(1)} s, HNSW index built in ${(indexMs / 1000).toFixed(1)} s`,
  );
  console.log('| operation | median ms |\n| --- | --: |');
  for (const [label, ms] of rows) console.log(`| ${label} | ${ms} |`);
}

if (!process.argv.includes('--no-pglite')) {
  const openStart = performance.now();
  const embedded = await openPgliteStore();
  console.log(
    `PGlite open (in memory, with pgvector, migrated): ${Math.round(performance.now() - openStart)} ms`,
  );
  await bench('PGlite (in memory)', embedded);
  await embedded.close();
}
const url = arg('postgres');
if (url) {
  const server = await openPostgresStore({ connectionString: url });
  await bench(`Postgres ${url}`, server);
  await server.close();
}
