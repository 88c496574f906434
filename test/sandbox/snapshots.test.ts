import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { LocalSnapshotStorage } from '../../src/sandbox/snapshot-storage.js';

describe('snapshots', () => {
  let dir: string;
  let storage: LocalSnapshotStorage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tandem-snapshots-test-'));
    storage = new LocalSnapshotStorage(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('round-trips the workspace: files changed or created after the snapshot are rolled back', async () => {
    const sandbox = await LocalProcessSandbox.create({ snapshots: { storage } });
    await sandbox.writeFile('src/main.py', 'print(1)');
    await sandbox.writeFile('data.bin', new Uint8Array([0, 255, 7]));
    await sandbox.exec('chmod +x src/main.py');
    const id = await sandbox.snapshot();
    await sandbox.writeFile('src/main.py', 'print(2)');
    await sandbox.writeFile('later.txt', 'later');
    await sandbox.restore(id);
    expect(await sandbox.readFile('src/main.py')).toBe('print(1)');
    expect(Array.from(await sandbox.readBytes('data.bin'))).toEqual([0, 255, 7]);
    await expect(sandbox.readFile('later.txt')).rejects.toMatchObject({ kind: 'not_found' });
    expect((await sandbox.exec('test -x src/main.py')).exitCode).toBe(0);
    await sandbox.dispose();
  });

  it('saves only the configured paths and restores into a fresh bwrap sandbox of the same namespace', async () => {
    const options = { storage, namespace: 'user-1:task-1', paths: ['outputs', 'missing'] };
    const first = await BubblewrapSandbox.create({ snapshots: options });
    await first.exec('mkdir -p outputs && echo result > outputs/r.txt && echo scratch > scratch.txt');
    const id = await first.snapshot();
    expect(id.startsWith('user-1:task-1/')).toBe(true);
    await first.dispose();
    const second = await BubblewrapSandbox.create({ snapshots: options });
    expect(await second.restoreLatest()).toBe(id);
    expect((await second.exec('cat outputs/r.txt; ls')).stdout).toBe('result\noutputs\n');
    await second.dispose();
  });

  it.skipIf(process.getuid?.() !== 0)(
    'restores as the sandbox user when bwrap runs as another user',
    async () => {
      const sandbox = await BubblewrapSandbox.create({
        snapshots: { storage },
        runAs: { uid: 65534, gid: 65534 },
      });
      await sandbox.writeFile('out/f.txt', 'host');
      const id = await sandbox.snapshot();
      await sandbox.restore(id);
      const result = await sandbox.exec(
        'echo more >> out/f.txt && touch out/new && stat -c %u out out/f.txt',
      );
      expect(result.stdout).toBe('65534\n65534\n');
      expect(await sandbox.readFile('out/f.txt')).toBe('hostmore\n');
      await sandbox.dispose();
    },
  );

  it('keeps only the last N snapshots of a namespace', async () => {
    const sandbox = await LocalProcessSandbox.create({ snapshots: { storage, keepLast: 2 } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      await sandbox.writeFile('n.txt', String(i));
      ids.push(await sandbox.snapshot());
    }
    expect((await storage.list(`${sandbox.id}/`)).sort()).toEqual(ids.slice(2));
    await expect(sandbox.restore(ids[0] as string)).rejects.toMatchObject({ kind: 'not_found' });
    await sandbox.restore(ids[2] as string);
    expect(await sandbox.readFile('n.txt')).toBe('2');
    await sandbox.dispose();
  });

  it('refuses a snapshot over the size cap and stores nothing', async () => {
    const sandbox = await LocalProcessSandbox.create({ snapshots: { storage, maxBytes: 10_000 } });
    await sandbox.exec('head -c 2000000 /dev/urandom > noise.bin');
    await expect(sandbox.snapshot()).rejects.toMatchObject({ kind: 'too_large' });
    expect(await storage.list(`${sandbox.id}/`)).toEqual([]);
    await sandbox.dispose();
  });

  it('refuses snapshot ids that would leave the storage', async () => {
    const sandbox = await LocalProcessSandbox.create({ snapshots: { storage } });
    await expect(sandbox.restore('../../etc/passwd')).rejects.toMatchObject({ kind: 'invalid' });
    await sandbox.dispose();
  });
});
