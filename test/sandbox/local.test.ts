import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/core/errors.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { PIPE_GRACE_MS } from '../../src/sandbox/process.js';
import { FakeClock } from '../../src/testing/index.js';
import { isAlive, processesWith, settle, sleepers, uniqueSleep } from './helpers.js';

async function withSandbox<T>(fn: (s: LocalProcessSandbox) => Promise<T>): Promise<T> {
  const sandbox = await LocalProcessSandbox.create();
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.dispose();
  }
}

/** A sandbox whose exec deadlines and pipe grace periods run on a fake clock the test moves. */
async function withClockedSandbox<T>(
  fn: (s: LocalProcessSandbox, clock: FakeClock) => Promise<T>,
): Promise<T> {
  const clock = new FakeClock();
  const sandbox = await LocalProcessSandbox.create({ runtime: { clock } });
  try {
    return await fn(sandbox, clock);
  } finally {
    await settle(clock, sandbox.dispose());
  }
}

/** The pids the command wrote to `pids`, once it has written `count` of them (so the kill comes after they started). */
function startedPids(s: LocalProcessSandbox, count = 2): Promise<number[]> {
  return vi.waitFor(
    async () => {
      const lines = (await s.readFile('pids').catch(() => '')).split('\n').filter(Boolean);
      expect(lines).toHaveLength(count);
      return lines.map(Number);
    },
    { timeout: 10_000, interval: 10 },
  );
}

/** Waits (bounded) until `count` `sleep <duration>` processes run: a `setsid` before them has happened. */
const sleeping = (duration: string, count: number) =>
  vi.waitFor(() => expect(sleepers(duration)).toHaveLength(count), { timeout: 10_000, interval: 10 });

/** Waits (bounded) until none of `pids` is alive: SIGKILL is sent, its delivery takes the kernel a moment. */
const dead = (pids: number[]) =>
  vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 2000, interval: 10 });

describe('LocalProcessSandbox', () => {
  it('runs shell lines and code in python, node and bash in the workspace', () =>
    withSandbox(async (s) => {
      expect((await s.exec('echo hi && pwd')).stdout).toBe(`hi\n${s.root}\n`);
      expect((await s.exec('', { language: 'python', code: 'print(6 * 7)' })).stdout).toBe('42\n');
      expect((await s.exec('', { language: 'node', code: 'console.log(typeof require)' })).stdout).toBe(
        'function\n',
      );
      expect((await s.exec('[ -n "$BASH_VERSION" ] && echo bash', { language: 'bash' })).stdout).toBe(
        'bash\n',
      );
      expect(await s.exec('exit 3')).toMatchObject({ exitCode: 3, timedOut: false, truncated: false });
    }));

  it('passes stdin, cwd and env, over a scrubbed environment', () =>
    withSandbox(async (s) => {
      process.env.TANDEM_TEST_SECRET = 'leak';
      try {
        await s.writeFile('sub/keep.txt', '');
        const result = await s.exec('cat; pwd; env | sort', {
          stdin: 'in\n',
          cwd: 'sub',
          env: { EXTRA: '1' },
        });
        const lines = result.stdout.trim().split('\n');
        expect(lines.slice(0, 2)).toEqual(['in', `${s.root}/sub`]);
        const names = lines.slice(2).map((l) => l.split('=')[0]);
        expect(names.filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n as string))).toEqual([
          'EXTRA',
          'HOME',
          'LANG',
          'PATH',
        ]);
        expect(result.stdout).toContain(`HOME=${s.root}\n`);
        expect(result.stdout).not.toContain('leak');
      } finally {
        delete process.env.TANDEM_TEST_SECRET;
      }
    }));

  it('kills the whole process tree on timeout', () =>
    withClockedSandbox(async (s, clock) => {
      const run = s.exec('sleep 30 & echo $! > pids; sleep 30 & echo $! >> pids; wait', { timeoutMs: 400 });
      const pids = await startedPids(s);
      await clock.advance(400);
      const result = await settle(clock, run);
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      await dead(pids);
    }));

  it('kills the whole process tree on abort and rejects with AbortError', () =>
    withSandbox(async (s) => {
      const controller = new AbortController();
      const run = s.exec('sleep 30 & echo $! > pids; sleep 30 & echo $! >> pids; wait', {
        signal: controller.signal,
      });
      const pids = await startedPids(s);
      controller.abort();
      await expect(run).rejects.toBeInstanceOf(AbortError);
      await dead(pids);
    }));

  it('does not let background processes outlive the call', () =>
    withSandbox(async (s) => {
      const result = await s.exec('sleep 30 > /dev/null 2>&1 & echo $!');
      expect(result.exitCode).toBe(0);
      // SIGKILL is sent before exec returns; its delivery takes the kernel a moment.
      await vi.waitFor(() => expect(isAlive(Number(result.stdout.trim()))).toBe(false), { timeout: 1000 });
    }));

  it('settles at the deadline when a grandchild that left the session holds stdout, and kills it', () =>
    withClockedSandbox(async (s, clock) => {
      const sleep = uniqueSleep();
      const run = s.exec(`setsid sleep ${sleep} & sleep ${sleep}`, { timeoutMs: 500 });
      await sleeping(sleep, 2);
      await clock.advance(500);
      const result = await settle(clock, run);
      expect(result).toMatchObject({ timedOut: true, exitCode: null });
      // Nothing waits past the deadline but the two pipe grace periods.
      expect(result.durationMs).toBeLessThanOrEqual(500 + 2 * PIPE_GRACE_MS);
      await vi.waitFor(() => expect(processesWith(sleep)).toEqual([]), { timeout: 2000, interval: 10 });
    }));

  it('settles on abort when a grandchild that left the session holds stdout, and kills it', () =>
    withSandbox(async (s) => {
      const sleep = uniqueSleep();
      const controller = new AbortController();
      const run = s.exec(`setsid sleep ${sleep} & sleep ${sleep}`, { signal: controller.signal });
      await sleeping(sleep, 2);
      controller.abort();
      await expect(run).rejects.toBeInstanceOf(AbortError);
      await vi.waitFor(() => expect(processesWith(sleep)).toEqual([]), { timeout: 2000, interval: 10 });
    }));

  it('returns when the command exits though an orphaned daemon still holds stdout, and kills the daemon', () =>
    withClockedSandbox(async (s, clock) => {
      const sleep = uniqueSleep();
      const result = await settle(
        clock,
        s.exec(`(setsid sleep ${sleep} &); echo done`, { timeoutMs: 10_000 }),
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
      // Returned after the two pipe grace periods, long before the deadline.
      expect(result.durationMs).toBeLessThanOrEqual(2 * PIPE_GRACE_MS);
      await vi.waitFor(() => expect(processesWith(sleep)).toEqual([]), { timeout: 2000, interval: 10 });
    }));

  it('caps captured output and marks it truncated', () =>
    withSandbox(async (s) => {
      const result = await s.exec("head -c 10000000 /dev/zero | tr '\\0' a; head -c 100000 /dev/zero >&2", {
        maxOutputBytes: 65_536,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.length).toBe(65_536);
      expect(result.stderr.length).toBe(65_536);
      expect(result.truncated).toBe(true);
    }));

  it('refuses work once disposed, kills running execs and removes its temp workspace', async () => {
    const s = await LocalProcessSandbox.create();
    const running = s.exec('sleep 30').catch((error: unknown) => error);
    await s.dispose();
    expect(await running).toMatchObject({ kind: 'disposed' });
    expect(existsSync(s.root)).toBe(false);
    await expect(s.exec('true')).rejects.toMatchObject({ kind: 'disposed' });
    await expect(s.readFile('x')).rejects.toBeInstanceOf(SandboxError);
  });

  it('keeps a caller-given workspace on dispose', async () => {
    const outer = await LocalProcessSandbox.create();
    const inner = await LocalProcessSandbox.create({ workspace: `${outer.root}/ws` });
    await inner.writeFile('f.txt', 'kept');
    await inner.dispose();
    expect(await outer.readFile('ws/f.txt')).toBe('kept');
    await outer.dispose();
  });

  it('rejects invalid env names and unknown languages with typed errors', () =>
    withSandbox(async (s) => {
      await expect(s.exec('true', { env: { 'A=B': '1' } })).rejects.toMatchObject({ kind: 'invalid' });
      await expect(s.exec('', { code: 'x', language: 'ruby' as 'bash' })).rejects.toMatchObject({
        kind: 'invalid',
      });
      await expect(s.exec('  ')).rejects.toMatchObject({ kind: 'invalid' });
    }));
});
