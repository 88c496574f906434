/** The embedded SQL store on a real PGlite, in-process: in memory and in a data directory. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgliteStore, openSqlStore, type SqlStore } from '../../src/pglite/index.js';
import { vectorStoreContract, workingMemoryStoreContract } from '../contracts/memory-store-contract.js';
import { sessionStoreContract } from '../contracts/session-store-contract.js';
import { checkpointStoreContract } from '../state/checkpoint-contract.js';
import { appendUntilKilled, expectWholeBatches } from './kill.js';
import { sqlStoreContract } from './sql-store-contract.js';

// One database for the file (each PGlite takes seconds to start); each case starts from empty tables.
let shared: SqlStore;
let dir: string;
beforeAll(async () => {
  shared = await openPgliteStore();
  dir = await mkdtemp(join(tmpdir(), 'tandem-pglite-'));
});
afterAll(async () => {
  await shared?.close();
  await rm(dir, { recursive: true, force: true });
});

async function emptied(): Promise<SqlStore> {
  await shared.client.query(
    'TRUNCATE tandem_threads, tandem_messages, tandem_summaries, tandem_checkpoints, tandem_working_memory, tandem_vectors',
  );
  return shared;
}

sqlStoreContract('PGlite store', emptied);
checkpointStoreContract('PGlite store checkpoints', async () => (await emptied()).checkpoints);
sessionStoreContract('PGlite store', emptied);
workingMemoryStoreContract('PGlite store', async () => (await emptied()).workingMemory);
vectorStoreContract('PGlite store', async () => (await emptied()).vectors);

describe('PGlite store', () => {
  it('keeps a thread in a data directory across close and reopen', async () => {
    const dataDir = join(dir, 'reopen');
    const first = await openPgliteStore({ dataDir });
    await first.session('t', { resourceId: 'u' }).append([{ role: 'user', content: 'remember me' }]);
    await first.close();
    const again = await openPgliteStore({ dataDir });
    expect((await again.session('t').load()).items.map((i) => i.message.content)).toEqual(['remember me']);
    await again.close();
  });

  it('stores vectors with pgvector and an HNSW index per dimension', async () => {
    const store = await emptied();
    expect(store.vectorMode).toBe('pgvector');
    await store.vectors.upsert([
      { id: 'v', vector: [1, 2, 3], resourceId: 'u', threadId: 't', text: 'v', createdAt: 0 },
    ]);
    const { rows } = await store.client.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'tandem_vectors_hnsw_3'",
    );
    expect(rows[0]?.indexdef).toMatch(/USING hnsw .*vector_cosine_ops/);
  });

  it('refreshes the planner statistics as vectors arrive (PGlite has no autovacuum), so recall can use the HNSW index', async () => {
    const store = await openSqlStore((await emptied()).client);
    const records = (from: number) =>
      Array.from({ length: 600 }, (_, i) => ({
        id: `v${from + i}`,
        vector: [1, (from + i) % 7, i % 5],
        resourceId: 'u',
        threadId: 't',
        text: 'v',
        createdAt: 0,
      }));
    await store.vectors.upsert(records(0));
    await store.vectors.upsert(records(600));
    await store.vectors.upsert(records(1200));
    const { rows } = await store.client.query<{ reltuples: number }>(
      "SELECT reltuples FROM pg_class WHERE relname = 'tandem_vectors'",
    );
    expect(Number(rows[0]?.reltuples)).toBe(1800);
  });

  it('refuses a database written by a newer schema version, naming it', async () => {
    const db = await PGlite.create({ extensions: { vector } });
    await (await openPgliteStore({ db })).client.query('UPDATE tandem_schema SET version = 99');
    await expect(openPgliteStore({ db })).rejects.toMatchObject({
      kind: 'unsupported_version',
      message: expect.stringMatching(/version 99.*reads up to 1/),
    });
    await db.close();
  });

  it('reports an append to a closed database as unavailable, naming the database', async () => {
    const dataDir = join(dir, 'closed');
    const store = await openPgliteStore({ dataDir });
    const session = store.session('t');
    await store.close();
    await expect(session.append([{ role: 'user', content: 'lost' }])).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining(`pglite ${dataDir}`),
    });
  });

  it('leaves a readable thread of whole batches after kill -9 during appends', {
    timeout: 60_000,
  }, async () => {
    const dataDir = join(dir, 'killed');
    const reported = await appendUntilKilled(['pglite', dataDir], 15);
    const store = await openPgliteStore({ dataDir });
    await expectWholeBatches(store, reported);
    await store.close();
  });
});
