/**
 * FileCheckpointStore against a wrapped `node:fs/promises` (real files in a
 * temp directory; the wrapper records calls and can act in the middle of a
 * write): `fsync: true` flushes the checkpoint before the rename and the
 * directory after it, and a sweep never deletes a temp file being written.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileCheckpointStore } from '../../src/fs/file-checkpoint-store.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

const calls = vi.hoisted(() => [] as string[]);
/** Runs while a file is flushed, before the flush itself. */
const duringSync = vi.hoisted(() => ({ hook: undefined as ((path: string) => Promise<void>) | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const wrapped = {
    ...actual,
    async open(path: string, flags?: string) {
      const handle = await actual.open(path, flags);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        calls.push(`sync ${path}`);
        await duringSync.hook?.(path);
        return sync();
      };
      return handle;
    },
    async rename(from: string, to: string) {
      calls.push(`rename ${from} -> ${to}`);
      return actual.rename(from, to);
    },
  };
  return { ...wrapped, default: wrapped };
});

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  calls.length = 0;
  duringSync.hook = undefined;
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-fsync-'));
  dirs.push(dir);
  return dir;
}

describe('FileCheckpointStore fsync option', () => {
  it.skipIf(process.platform === 'win32')(
    'fsync: true flushes the temp file before the rename and the directory after it',
    async () => {
      const dir = await freshDir();
      const store = new FileCheckpointStore({ dir, fsync: true });
      await store.save('run_1', { v: 1 });
      const path = store.pathOf('run_1');
      expect(calls).toHaveLength(3);
      const [syncTemp, renamed] = calls;
      const temp = syncTemp?.slice('sync '.length) ?? '';
      expect(temp.startsWith(`${path}.`) && temp.endsWith('.tmp')).toBe(true);
      expect(renamed).toBe(`rename ${temp} -> ${path}`);
      expect(calls[2]).toBe(`sync ${dir}`);
      expect(await store.load('run_1')).toEqual({ v: 1 });
      expect(await readdir(dir)).toEqual(['run_1.json']);
    },
  );

  it('without fsync nothing is flushed', async () => {
    const dir = await freshDir();
    const store = new FileCheckpointStore({ dir });
    await store.save('run_1', { v: 1 });
    expect(calls.filter((c) => c.startsWith('sync'))).toEqual([]);
    expect(await store.load('run_1')).toEqual({ v: 1 });
  });
});

describe('FileCheckpointStore sweep of leftover temp files', () => {
  it('never deletes a temp file this process is still writing, even when its clock calls it stale', async () => {
    const dir = await freshDir();
    const writer = new FileCheckpointStore({ dir, fsync: true });
    const sweeper = new FileCheckpointStore({ dir, clock: new FakeClock(Date.now() + 24 * 3600_000) });
    const seen: string[][] = [];
    duringSync.hook = async (path) => {
      if (!path.endsWith('.tmp')) return;
      await sweeper.list();
      seen.push(await readdir(dir));
    };
    await writer.save('run_1', { v: 1 });
    expect(seen).toEqual([[expect.stringMatching(/^run_1\.json\.\d+\.\d+\.tmp$/)]]);
    expect(await writer.load('run_1')).toEqual({ v: 1 });
  });
});
