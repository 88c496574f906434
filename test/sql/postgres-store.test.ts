/** The Postgres SQL store against a real `postgres` server from Debian's package, one per file. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type SqlStore } from '../../src/postgres/index.js';
import { vectorStoreContract, workingMemoryStoreContract } from '../contracts/memory-store-contract.js';
import { sessionStoreContract } from '../contracts/session-store-contract.js';
import { checkpointStoreContract } from '../state/checkpoint-contract.js';
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { appendUntilKilled, expectWholeBatches } from './kill.js';
import { sqlStoreContract } from './sql-store-contract.js';

let server: PostgresServer;
const stores: SqlStore[] = [];
let databases = 0;

beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await server?.stop();
});

/** A store on a fresh database: each case migrates its own. */
async function fresh(): Promise<SqlStore> {
  // Cases run one at a time: close the previous case's pools so connections stay few.
  while (stores.length > 0) await stores.pop()?.close();
  const url = await server.createDatabase(`case_${++databases}`);
  const store = await openPostgresStore({ connectionString: url, max: 5 });
  stores.push(store);
  return store;
}

sqlStoreContract('Postgres store', fresh);
checkpointStoreContract('Postgres store checkpoints', async () => (await fresh()).checkpoints);
sessionStoreContract('Postgres store', fresh);
workingMemoryStoreContract('Postgres store', async () => (await fresh()).workingMemory);
vectorStoreContract('Postgres store', async () => (await fresh()).vectors);

describe('Postgres store', () => {
  it('migrates a fresh database once when two processes open it at the same moment', async () => {
    const url = await server.createDatabase('race');
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresStore({ connectionString: url })),
    );
    stores.push(...opened);
    const { rows } = await opened[0]!.client.query('SELECT version FROM tandem_schema');
    expect(rows).toEqual([{ version: 1 }]);
  });

  it('refuses a database written by a newer schema version, naming it', async () => {
    const store = await fresh();
    await store.client.query('UPDATE tandem_schema SET version = 7');
    const pool = new pg.Pool({ connectionString: server.url.replace(/postgres$/, `case_${databases}`) });
    await expect(openPostgresStore({ pool })).rejects.toMatchObject({
      kind: 'unsupported_version',
      message: expect.stringMatching(/version 7.*reads up to 1/),
    });
    await pool.end();
  });

  it('stores vectors as pgvector when the server has the extension, else as float8 arrays', async () => {
    const store = await fresh();
    const { rows } = await store.client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    expect(store.vectorMode).toBe(rows.length > 0 ? 'pgvector' : 'array');
  });

  it('reports an append while the server is unreachable as unavailable, naming host:port; nothing lands', async () => {
    const url = await server.createDatabase('outage');
    const proxy = await startTcpProxy(server.port);
    const pool = new pg.Pool({ host: '127.0.0.1', port: proxy.port, user: 'postgres', database: 'outage' });
    pool.on('error', () => {});
    const store = await openPostgresStore({ pool });
    const session = store.session('t');
    await session.append([{ role: 'user', content: 'before' }]);
    await proxy.cut();
    await expect(session.append([{ role: 'user', content: 'during' }])).rejects.toMatchObject({
      name: 'SessionError',
      kind: 'unavailable',
      message: expect.stringContaining(`postgres 127.0.0.1:${proxy.port}`),
    });
    await proxy.close();
    const direct = await openPostgresStore({ connectionString: url });
    stores.push(direct);
    expect((await direct.session('t').load()).items.map((i) => i.message.content)).toEqual(['before']);
    await pool.end();
  });

  it('fails to open on a server that is not there as unavailable, naming host:port from the URL', async () => {
    const proxy = await startTcpProxy(server.port);
    await proxy.close();
    await expect(
      openPostgresStore({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres` }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining(`postgres 127.0.0.1:${proxy.port}`),
    });
  });

  it('leaves a readable thread of whole batches after kill -9 during appends', {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase('killed');
    const reported = await appendUntilKilled(['postgres', url], 30);
    const store = await openPostgresStore({ connectionString: url });
    stores.push(store);
    await expectWholeBatches(store, reported);
  });
});
