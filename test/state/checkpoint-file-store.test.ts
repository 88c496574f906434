import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../../src/fs/file-checkpoint-store.js';
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
