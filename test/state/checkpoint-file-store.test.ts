import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore, STALE_TEMP_MS } from '../../src/fs/file-checkpoint-store.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { checkpointStoreContract } from './checkpoint-contract.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-ckpt-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

checkpointStoreContract(
  'FileCheckpointStore',
  async () => new FileCheckpointStore({ dir: join(await freshDir(), 'nested') }),
);

describe('FileCheckpointStore', () => {
  it('keeps every file inside its directory whatever the run id', async () => {
    const root = await freshDir();
    const dir = join(root, 'store');
    const store = new FileCheckpointStore({ dir });
    for (const id of ['../../etc/passwd', '..', '/abs/path', 'C:\\x', 'a\\..\\b']) {
      expect(dirname(store.pathOf(id))).toBe(dir);
      await store.save(id, { id });
    }
    expect(await readdir(root)).toEqual(['store']);
    expect((await readdir(dir)).every((n) => /^[A-Za-z0-9_%-]+\.json$/.test(n))).toBe(true);
  });

  it('writes through a temp file: concurrent saves leave one whole checkpoint and no temp files', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir });
    const big = 'x'.repeat(200_000);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.save('run_1', { i, big })));
    const loaded = (await store.load('run_1')) as { i: number; big: string };
    expect(loaded.big).toBe(big);
    expect(await readdir(dir)).toEqual(['run_1.json']);
  });

  it('removes its temp file when the rename fails and reports an io error', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir });
    await mkdir(store.pathOf('run_1'));
    await mkdir(join(store.pathOf('run_1'), 'occupied'));
    await expect(store.save('run_1', { v: 1 })).rejects.toMatchObject({ kind: 'io' });
    expect(await readdir(dir)).toEqual(['run_1.json']);
  });

  it('reports an unwritable directory as an io error', async () => {
    const root = await freshDir();
    await writeFile(join(root, 'file'), 'x');
    const store = new FileCheckpointStore({ dir: join(root, 'file', 'sub') });
    await expect(store.save('run_1', {})).rejects.toMatchObject({ kind: 'io' });
  });

  it('reports a damaged file as corrupt and lists an absent directory as empty', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir });
    await store.save('run_1', { v: 1 });
    await writeFile(store.pathOf('run_1'), '{"format":"tandem-checkpoint/1"');
    await expect(store.load('run_1')).rejects.toMatchObject({ kind: 'corrupt' });
    expect(await new FileCheckpointStore({ dir: join(dir, 'none') }).list()).toEqual([]);
  });
});

describe('FileCheckpointStore leftover temp files', () => {
  // A fixed "now", so file ages do not depend on when the test runs.
  const NOW = 1_800_000_000_000;

  /** Files in `dir`, each written `ageMs` before NOW. */
  async function files(dir: string, entries: Record<string, number>): Promise<void> {
    for (const [name, ageMs] of Object.entries(entries)) {
      const path = join(dir, name);
      await writeFile(path, 'partial');
      const seconds = (NOW - ageMs) / 1000;
      await utimes(path, seconds, seconds);
    }
  }

  const leftovers = {
    // Ours, from a writer that died long ago: deleted.
    'run_1.json.4242.7.tmp': STALE_TEMP_MS + 1,
    'a%2Fb.json.1.0.tmp': 24 * 3600_000,
    // Ours, but young: another process may still be writing it.
    'run_2.json.5151.0.tmp': 10_000,
    // Not our naming: never touched, whatever the age.
    'notes.tmp': 24 * 3600_000,
    'run_3.json.tmp': 24 * 3600_000,
    'run_3.json.x.1.tmp': 24 * 3600_000,
  };
  const kept = ['notes.tmp', 'run_2.json.5151.0.tmp', 'run_3.json.tmp', 'run_3.json.x.1.tmp'];

  it('the next save deletes stale temp files of its own naming, and nothing else', async () => {
    const dir = await freshDir();
    await files(dir, leftovers);
    const store = new FileCheckpointStore({ dir, clock: new FakeClock(NOW) });
    await store.save('run_9', { v: 1 });
    expect((await readdir(dir)).sort()).toEqual([...kept, 'run_9.json'].sort());
  });

  it('list deletes stale temp files and lists only checkpoints', async () => {
    const dir = await freshDir();
    await files(dir, { ...leftovers, 'run_4.json': 0 });
    const store = new FileCheckpointStore({ dir, clock: new FakeClock(NOW) });
    expect(await store.list()).toEqual(['run_4']);
    expect((await readdir(dir)).sort()).toEqual([...kept, 'run_4.json'].sort());
  });

  it('a save sweeps at most once per staleTempMs', async () => {
    const dir = await freshDir();
    const clock = new FakeClock(NOW);
    const store = new FileCheckpointStore({ dir, clock, staleTempMs: 60_000 });
    await store.save('run_1', {});
    await files(dir, { 'run_1.json.4242.1.tmp': 120_000 });
    await store.save('run_1', {});
    expect(await readdir(dir)).toContain('run_1.json.4242.1.tmp');
    await clock.advance(60_000);
    await store.save('run_1', {});
    expect(await readdir(dir)).toEqual(['run_1.json']);
  });

  it('rejects a staleTempMs that is not positive', () => {
    expect(() => new FileCheckpointStore({ dir: 'x', staleTempMs: 0 })).toThrow(/staleTempMs/);
  });
});

describe('FileCheckpointStore claims (saveIf)', () => {
  const NOW = 1_800_000_000_000;

  async function lockAged(store: FileCheckpointStore, runId: string, ageMs: number): Promise<void> {
    const lock = `${store.pathOf(runId)}.lock`;
    await writeFile(lock, '');
    const seconds = (NOW - ageMs) / 1000;
    await utimes(lock, seconds, seconds);
  }

  it('loses while another claim holds the run’s lock, and leaves no lock file behind when it wins', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir, clock: new FakeClock(NOW) });
    await store.save('run_1', { revision: 1 });
    await lockAged(store, 'run_1', 1_000);
    expect(await store.saveIf('run_1', { revision: 2 }, 1)).toBe(false);
    expect(await store.load('run_1')).toEqual({ revision: 1 });

    await rm(`${store.pathOf('run_1')}.lock`);
    expect(await store.saveIf('run_1', { revision: 2 }, 1)).toBe(true);
    expect(await readdir(dir)).toEqual(['run_1.json']);
  });

  it('takes over a lock left by a claim that crashed (older than staleTempMs)', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir, clock: new FakeClock(NOW) });
    await store.save('run_1', { revision: 1 });
    await lockAged(store, 'run_1', STALE_TEMP_MS + 1);
    expect(await store.saveIf('run_1', { revision: 2 }, 1)).toBe(true);
    expect(await store.load('run_1')).toEqual({ revision: 2 });
    expect(await store.list()).toEqual(['run_1']);
  });
});
