import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { PIPE_GRACE_MS } from '../../src/sandbox/process.js';
import { FakeClock } from '../../src/testing/index.js';
import { processesWith, settle, sleepers, uniqueSleep } from './helpers.js';

async function withBwrap<T>(
  fn: (s: BubblewrapSandbox) => Promise<T>,
  options: Parameters<typeof BubblewrapSandbox.create>[0] = {},
): Promise<T> {
  const sandbox = await BubblewrapSandbox.create(options);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.dispose();
  }
}

/** A bwrap sandbox whose exec deadlines, pipe grace periods and cgroup retries run on a fake clock the test moves. */
async function withClockedBwrap<T>(fn: (s: BubblewrapSandbox, clock: FakeClock) => Promise<T>): Promise<T> {
  const clock = new FakeClock();
  const sandbox = await BubblewrapSandbox.create({ runtime: { clock } });
  try {
    return await fn(sandbox, clock);
  } finally {
    await settle(clock, sandbox.dispose());
  }
}

/** Waits (bounded) until `count` `sleep <duration>` processes run: the kill then comes after they started. */
const sleeping = (duration: string, count: number) =>
  vi.waitFor(() => expect(sleepers(duration)).toHaveLength(count), { timeout: 10_000, interval: 10 });

/** Waits (bounded) until no process sleeps `duration`: SIGKILL is sent, its delivery takes the kernel a moment. */
const gone = (duration: string) =>
  vi.waitFor(() => expect(processesWith(duration)).toEqual([]), { timeout: 2000, interval: 10 });

const connect = (port: number) => `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;

describe('BubblewrapSandbox', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // Fails loudly, with bwrap's own words, when this machine cannot create namespaces.
    expect(await BubblewrapSandbox.check()).toEqual({ available: true });
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('has no network: a loopback server of the host is unreachable (and reachable without bwrap)', async () => {
    const local = await LocalProcessSandbox.create();
    try {
      expect((await local.exec(connect(port), { language: 'bash' })).stdout).toBe('connected\n');
    } finally {
      await local.dispose();
    }
    await withBwrap(async (s) => {
      const result = await s.exec(connect(port), { language: 'bash' });
      expect(result.stdout).toBe('');
      expect(result.exitCode).not.toBe(0);
    });
  });

  it('makes the host read-only and only /workspace writable', () =>
    withBwrap(async (s) => {
      const result = await s.exec(
        'for d in /usr /etc /workspace /tmp /; do touch "$d/probe" 2>/dev/null && echo "$d ok" || echo "$d no"; done; pwd',
      );
      expect(result.stdout).toBe('/usr no\n/etc no\n/workspace ok\n/tmp ok\n/ no\n/workspace\n');
      expect(await s.listFiles()).toContainEqual({ path: 'probe', type: 'file', size: 0 });
      expect(existsSync('/usr/probe')).toBe(false);
      expect((await s.exec('cat /etc/shadow')).exitCode).not.toBe(0);
      expect((await s.exec('echo $HOME; id -u; hostname')).stdout).toBe(
        `/workspace\n${process.getuid?.()}\nsandbox\n`,
      );
    }));

  it('runs python and node code inside the sandbox', () =>
    withBwrap(async (s) => {
      await s.writeFile('data/n.txt', '21');
      const py = await s.exec('', { language: 'python', code: 'print(int(open("data/n.txt").read()) * 2)' });
      expect(py).toMatchObject({ exitCode: 0, stdout: '42\n' });
      const node = await s.exec('', { language: 'node', code: 'console.log(process.cwd())' });
      expect(node.stdout).toBe('/workspace\n');
    }));

  it('kills the whole process tree in its pid namespace on timeout', () =>
    withClockedBwrap(async (s, clock) => {
      const sleep = uniqueSleep();
      const run = s.exec(`sleep ${sleep} & sleep ${sleep} & wait`, { timeoutMs: 500 });
      await sleeping(sleep, 2);
      await clock.advance(500);
      expect((await settle(clock, run)).timedOut).toBe(true);
      await gone(sleep);
    }));

  it('settles at the deadline when a grandchild that left the session holds stdout, and kills it', () =>
    withClockedBwrap(async (s, clock) => {
      const sleep = uniqueSleep();
      const run = s.exec(`setsid sleep ${sleep} & sleep ${sleep}`, { timeoutMs: 500 });
      await sleeping(sleep, 2);
      await clock.advance(500);
      const result = await settle(clock, run);
      expect(result).toMatchObject({ timedOut: true, exitCode: null });
      // Nothing waits past the deadline but the two pipe grace periods.
      expect(result.durationMs).toBeLessThanOrEqual(500 + 2 * PIPE_GRACE_MS);
      await gone(sleep);
    }));

  it('kills the tree on abort', () =>
    withBwrap(async (s) => {
      const sleep = uniqueSleep();
      const controller = new AbortController();
      const run = s.exec(`sleep ${sleep} & wait`, { signal: controller.signal });
      await sleeping(sleep, 1);
      controller.abort();
      await expect(run).rejects.toMatchObject({ kind: 'aborted' });
      await gone(sleep);
    }));

  it('caps output', () =>
    withBwrap(async (s) => {
      const result = await s.exec("head -c 10000000 /dev/zero | tr '\\0' a", { maxOutputBytes: 100_000 });
      expect(result.stdout.length).toBe(100_000);
      expect(result.truncated).toBe(true);
    }));

  it('enforces the memory and CPU limits', () =>
    withBwrap(
      async (s) => {
        const memory = await s.exec('', { language: 'python', code: 'b = bytearray(1536 * 1024 * 1024)' });
        expect(memory.exitCode).not.toBe(0);
        expect(memory.stderr).toContain('MemoryError');
        const cpu = await s.exec('while :; do :; done', { timeoutMs: 10_000 });
        expect(cpu.timedOut).toBe(false);
        expect(cpu.exitCode).not.toBe(0);
      },
      { limits: { memoryBytes: 1024 ** 3, cpuSeconds: 1 } },
    ));

  it('enforces the process limit for a non-root sandbox user', () => {
    // RLIMIT_NPROC does not bind root, so as root the sandbox runs as nobody.
    const runAs = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    return withBwrap(
      async (s) => {
        const result = await s.exec('for i in 1 2 3 4 5 6 7 8 9 10; do sleep 1 & done; wait');
        expect(result.exitCode).not.toBe(0);
        expect(result.stderr).toMatch(/fork/i);
        // Files written from the host belong to the sandbox user, who can change them.
        await s.writeFile('dir/from-host.txt', 'host');
        const append = await s.exec('echo x >> dir/from-host.txt && id -u');
        expect(append.stdout).toBe(`${runAs?.uid ?? process.getuid?.()}\n`);
        expect(await s.readFile('dir/from-host.txt')).toBe('hostx\n');
      },
      { limits: { maxProcesses: 4 }, runAs },
    );
  });

  it('refuses absolute paths outside /workspace and symlinks made inside that point out', () =>
    withBwrap(async (s) => {
      await s.writeFile('/workspace/a.txt', 'A');
      expect(await s.readFile('a.txt')).toBe('A');
      await expect(s.readFile('/etc/passwd')).rejects.toMatchObject({ kind: 'path_escape' });
      await s.exec('ln -s /etc/passwd out; ln -s /workspace/a.txt in');
      await expect(s.readFile('out')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(s.writeFile('out', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
      expect(await s.readFile('in')).toBe('A');
    }));

  it('reports a missing bwrap as a typed unavailable error', async () => {
    const error = await BubblewrapSandbox.create({ bwrapPath: '/nonexistent/bwrap' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect((error as Error).message).toContain('/nonexistent/bwrap not found');
  });
});
