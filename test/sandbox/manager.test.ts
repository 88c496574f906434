import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/core/sandbox.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { type SandboxKey, SandboxManager, type SandboxManagerOptions } from '../../src/sandbox/manager.js';
import { LocalSnapshotStorage } from '../../src/sandbox/snapshot-storage.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

function setup(options: Partial<SandboxManagerOptions> = {}) {
  const clock = new FakeClock();
  const created: LocalProcessSandbox[] = [];
  const keys: SandboxKey[] = [];
  const manager = new SandboxManager({
    clock,
    create: async (key) => {
      keys.push(key);
      const sandbox = await LocalProcessSandbox.create();
      created.push(sandbox);
      return sandbox;
    },
    ...options,
  });
  return { clock, manager, created, keys };
}

describe('SandboxManager', () => {
  it('creates one sandbox per (user, task), once, even for concurrent gets', async () => {
    const { manager, created, keys } = setup();
    const [a, b] = await Promise.all([manager.get('u1', 't1'), manager.get('u1', 't1')]);
    const c = await manager.get('u1', 't2');
    expect(created).toHaveLength(2);
    expect(keys.map((k) => k.key)).toEqual(['unified:u1:t1', 'unified:u1:t2']);
    await a.writeFile('shared.txt', 'code');
    expect(await b.readFile('shared.txt')).toBe('code');
    await expect(c.readFile('shared.txt')).rejects.toMatchObject({ kind: 'not_found' });
    await manager.dispose();
  });

  it('disposes a sandbox after the idle timeout, and a later get creates a fresh one', async () => {
    const { clock, manager, created } = setup();
    const sandbox = await manager.get('u', 't');
    await clock.advance(30 * 60 * 1000 - 1);
    expect(created[0]?.disposed).toBe(false);
    await clock.advance(1);
    expect(created[0]?.disposed).toBe(true);
    expect(existsSync(created[0]?.root as string)).toBe(false);
    expect(manager.has('u', 't')).toBe(false);
    await expect(sandbox.exec('true')).rejects.toMatchObject({ kind: 'disposed' });
    await manager.get('u', 't');
    expect(created).toHaveLength(2);
    await manager.dispose();
  });

  it('counts use as activity and never idles out a sandbox while a call runs', async () => {
    const { clock, manager, created } = setup({ idleTimeoutMs: 1000 });
    const sandbox = await manager.get('u', 't');
    await clock.advance(900);
    await sandbox.writeFile('a.txt', 'a');
    await clock.advance(900);
    expect(created[0]?.disposed).toBe(false);
    const running = sandbox.exec('read line; echo "$line"', { stdin: 'ok\n' });
    await clock.advance(5000);
    expect(created[0]?.disposed).toBe(false);
    expect((await running).stdout).toBe('ok\n');
    await clock.advance(1000);
    expect(created[0]?.disposed).toBe(true);
  });

  it('disposes everything on dispose and refuses new gets', async () => {
    const { manager, created } = setup();
    await Promise.all([manager.get('a', '1'), manager.get('b', '2'), manager.get('c', '3')]);
    await manager.dispose();
    expect(created.map((s) => s.disposed)).toEqual([true, true, true]);
    expect(manager.size).toBe(0);
    await expect(manager.get('a', '1')).rejects.toMatchObject({ kind: 'disposed' });
  });

  it('disposes everything when its signal aborts, including a sandbox still being created', async () => {
    const controller = new AbortController();
    const { manager, created } = setup({ signal: controller.signal });
    await manager.get('a', '1');
    const pending = manager.get('b', '2');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'disposed' });
    expect(created.map((s) => s.disposed)).toEqual([true, true]);
  });

  it('does not cache a failed creation', async () => {
    let calls = 0;
    const manager = new SandboxManager({
      clock: new FakeClock(),
      create: async () => {
        if (calls++ === 0) throw new Error('boom');
        return LocalProcessSandbox.create();
      },
    });
    await expect(manager.get('u', 't')).rejects.toThrow('boom');
    const sandbox = await manager.get('u', 't');
    expect((await sandbox.exec('echo ok')).stdout).toBe('ok\n');
    await manager.dispose();
  });

  it('snapshots on dispose and restores the newest snapshot on the next creation', async () => {
    const storageDir = await mkdtemp(join(tmpdir(), 'tandem-manager-test-'));
    const storage = new LocalSnapshotStorage(storageDir);
    const { clock, manager } = setup({
      snapshotOnDispose: true,
      restoreOnCreate: true,
      create: (key): Promise<Sandbox> =>
        LocalProcessSandbox.create({ snapshots: { storage, namespace: key.key } }),
    });
    await (await manager.get('u', 't')).writeFile('work.txt', 'progress');
    await clock.advance(30 * 60 * 1000);
    expect(manager.has('u', 't')).toBe(false);
    expect(await (await manager.get('u', 't')).readFile('work.txt')).toBe('progress');
    await manager.dispose();
    await rm(storageDir, { recursive: true, force: true });
  });
});
