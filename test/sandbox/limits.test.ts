import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { SandboxCgroup } from '../../src/sandbox/cgroup.js';
import { processesWith, uniqueSleep } from './helpers.js';

const MB = 1024 ** 2;
// Four processes that each hold 200 MB for a moment, then say so.
const FOUR_BY_200MB = `for i in 1 2 3 4; do python3 -c 'import time; b = bytearray(200 * 1024 * 1024); time.sleep(1); print("ok")' & done; wait`;
const isRoot = process.getuid?.() === 0;

/** Host directories of the cgroups (any version) a process is in, that exist now. */
function cgroupDirs(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cgroup`, 'utf8')
    .split('\n')
    .filter((line) => line.includes('tandem-'))
    .flatMap((line) => {
      const [, controllers, path] = line.split(':') as [string, string, string];
      const first = controllers.split(',')[0] ?? '';
      return [`/sys/fs/cgroup/${first}${path}`, `/sys/fs/cgroup/unified${path}`, `/sys/fs/cgroup${path}`];
    })
    .filter((dir) => existsSync(dir));
}

describe('whole-sandbox limits', () => {
  it('caps the memory of the sandbox as a whole: 4 processes × 200 MB do not fit in 300 MB', async (ctx) => {
    const sandbox = await BubblewrapSandbox.create({ limits: { memoryBytes: 300 * MB } });
    try {
      if (sandbox.warnings.some((w) => w.kind === 'memory_per_process'))
        ctx.skip('no usable memory cgroup here');
      expect(sandbox.warnings).toEqual([]);
      const result = await sandbox.exec(FOUR_BY_200MB, { timeoutMs: 20_000 });
      expect(result.stdout.match(/ok/g)?.length ?? 0).toBeLessThan(4);
    } finally {
      await sandbox.dispose();
    }
  });

  it('without a cgroup, warns at create that memory is capped per process, as 4 × 200 MB under 300 MB shows', async () => {
    const sandbox = await BubblewrapSandbox.create({ limits: { memoryBytes: 300 * MB }, cgroup: false });
    try {
      expect(sandbox.warnings.map((w) => w.kind)).toEqual(
        isRoot ? ['memory_per_process', 'processes_uncapped'] : ['memory_per_process'],
      );
      const result = await sandbox.exec(FOUR_BY_200MB, { timeoutMs: 20_000 });
      expect(result.stdout).toBe('ok\nok\nok\nok\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('without a cgroup but with an unprivileged user, the warning states the memory bound', async () => {
    const runAs = isRoot ? { uid: 65534, gid: 65534 } : undefined;
    const sandbox = await BubblewrapSandbox.create({
      limits: { memoryBytes: 300 * MB, maxProcesses: 8 },
      cgroup: false,
      runAs,
    });
    await sandbox.dispose();
    expect(sandbox.warnings).toEqual([
      {
        kind: 'memory_per_process',
        message: expect.stringContaining('up to 8 processes × 300 MiB = 2400 MiB per exec'),
      },
    ]);
  });

  it('caps the processes of the sandbox as a whole, even when it runs as root', async (ctx) => {
    const sandbox = await BubblewrapSandbox.create({ limits: { maxProcesses: 8 } });
    try {
      if (sandbox.warnings.some((w) => w.kind === 'processes_uncapped'))
        ctx.skip('no usable pids cgroup here');
      const result = await sandbox.exec('for i in $(seq 20); do sleep 1 & done; wait');
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/fork|resource/i);
    } finally {
      await sandbox.dispose();
    }
  });

  it('runs every process of the sandbox in its own cgroup and removes it on dispose', async (ctx) => {
    const sandbox = await BubblewrapSandbox.create();
    let dirs: string[] = [];
    try {
      if (sandbox.warnings.length > 0) ctx.skip('no usable cgroup here');
      const sleep = uniqueSleep();
      const running = sandbox.exec(`sleep ${sleep}`).catch((error: unknown) => error);
      // The sleep itself, not the bwrap and shell processes whose command lines also name it.
      const pid = await vi.waitFor(
        () => {
          const found = processesWith(sleep).find((p) =>
            readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('sleep\0'),
          );
          expect(found).toBeDefined();
          return found as number;
        },
        { timeout: 5000, interval: 20 },
      );
      dirs = cgroupDirs(pid);
      expect(dirs.length).toBeGreaterThan(0);
      await sandbox.dispose();
      expect(await running).toMatchObject({ kind: 'disposed' });
    } finally {
      await sandbox.dispose();
    }
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
  });

  it('sets up a cgroup v2 child under a given parent: controllers enabled, memory without swap, pids', async () => {
    // A stand-in for a delegated cgroup v2 directory: the same files, on a plain file system.
    const parent = await mkdtemp(join(tmpdir(), 'tandem-fake-cgroup-'));
    try {
      await writeFile(join(parent, 'cgroup.controllers'), 'cpu memory pids\n');
      await writeFile(join(parent, 'cgroup.subtree_control'), 'cpu\n');
      const cgroup = await SandboxCgroup.create('box', { memoryBytes: 300 * MB, maxProcesses: 8 }, parent);
      expect(cgroup).toBeInstanceOf(SandboxCgroup);
      expect((cgroup as SandboxCgroup).caps).toEqual({ memory: true, pids: true });
      expect(await readFile(join(parent, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
      const child = join(parent, 'box');
      expect(await readFile(join(child, 'memory.max'), 'utf8')).toBe(String(300 * MB));
      expect(await readFile(join(child, 'memory.swap.max'), 'utf8')).toBe('0');
      expect(await readFile(join(child, 'pids.max'), 'utf8')).toBe('8');
      await (cgroup as SandboxCgroup).add(4242);
      expect(await readFile(join(child, 'cgroup.procs'), 'utf8')).toBe('4242\n');
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('says why when a given parent has no memory controller', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'tandem-fake-cgroup-'));
    try {
      await writeFile(join(parent, 'cgroup.controllers'), 'cpu\n');
      expect(await SandboxCgroup.create('box', { memoryBytes: MB, maxProcesses: 8 }, parent)).toEqual({
        unavailable: expect.stringContaining(parent),
      });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
