import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { SandboxError } from '../../src/sandbox/errors.js';

// The swap needs renameat2(RENAME_EXCHANGE) from libc, reached through python3's ctypes.
const canSwap =
  spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { stdio: 'ignore' }).status ===
  0;

const CANARY = 'CANARY-outside-the-workspace';
const OPS = 12_000;
const WORKERS = 4;

/** Inside the sandbox: make `d` (a directory) and `l` (a link to the host directory), then swap them forever. */
function swapper(outside: string): string {
  return `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
os.makedirs('d', exist_ok=True)
open('d/secret', 'w').write('inside')
open('d/inside-marker', 'w').write('')
os.symlink(${JSON.stringify(outside)}, 'l')
open('ready', 'w').write('')
while True:
    libc.renameat2(-100, b'd', -100, b'l', 2)
`;
}

describe.skipIf(!canSwap)('workspace file API under a concurrent symlink swap', () => {
  let outside: string;
  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), 'tandem-canary-'));
    await writeFile(join(outside, 'secret'), CANARY);
    await writeFile(join(outside, 'outside-marker'), '');
  });
  afterAll(() => rm(outside, { recursive: true, force: true }));

  it('never reads, writes, lists or chowns outside the workspace while the sandbox swaps a directory with a link out', async () => {
    // As root the sandbox runs as nobody, so host writes are chowned: the chown must not escape either.
    const runAs = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const sandbox = await BubblewrapSandbox.create({ runAs });
    const stop = new AbortController();
    const swapping = sandbox
      .exec('', { language: 'python', code: swapper(outside), signal: stop.signal, timeoutMs: 60_000 })
      .catch((error: unknown) => error);
    const tally = { escapes: 0, inside: 0, refused: 0, other: [] as unknown[] };
    try {
      await vi.waitFor(() => sandbox.readFile('ready'), { timeout: 10_000, interval: 20 });
      const operations = [
        async () => {
          const text = await sandbox.readFile('d/secret');
          if (text === CANARY) tally.escapes++;
          else tally.inside++;
        },
        async () => {
          await sandbox.writeFile('d/p', 'host');
          tally.inside++;
        },
        async () => {
          const names = (await sandbox.listFiles('d')).map((e) => e.path);
          if (names.includes('d/outside-marker')) tally.escapes++;
          else tally.inside++;
        },
      ];
      const worker = async (offset: number) => {
        for (let i = offset; i < OPS; i += WORKERS) {
          await (operations[i % operations.length] as () => Promise<void>)().catch((error: unknown) => {
            if (error instanceof SandboxError) tally.refused++;
            else tally.other.push(error);
          });
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
    } finally {
      stop.abort();
      await swapping;
      await sandbox.dispose();
    }
    expect(tally.other).toEqual([]);
    expect(tally.escapes).toBe(0);
    expect(tally.inside + tally.refused).toBe(OPS);
    // The race was on: some operations met the link and were refused, some went through the directory.
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.inside).toBeGreaterThan(0);
    expect((await readdir(outside)).sort()).toEqual(['outside-marker', 'secret']);
    expect((await stat(outside)).uid).toBe(process.getuid?.());
    expect((await stat(join(outside, 'secret'))).uid).toBe(process.getuid?.());
  });
});

/** Inside the sandbox: keep `d` (a directory) and `l` (a link to the host directory) swapping, recreating them after each restore. */
function restoreSwapper(outside: string): string {
  return `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
open('ready', 'w').write('')
while True:
    if libc.renameat2(-100, b'd', -100, b'l', 2) != 0:
        try:
            os.makedirs('d', exist_ok=True)
            os.symlink(${JSON.stringify(outside)}, 'l')
        except OSError:
            pass
`;
}

describe.skipIf(!canSwap)('snapshot restore under a concurrent symlink swap', () => {
  let outside: string;
  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), 'tandem-canary-'));
  });
  afterAll(() => rm(outside, { recursive: true, force: true }));

  it('unpacks inside the sandbox, so nothing lands outside the workspace', async () => {
    const sandbox = await BubblewrapSandbox.create();
    await sandbox.writeFile('d/p', 'from the snapshot');
    const id = await sandbox.snapshot();
    const stop = new AbortController();
    const swapping = sandbox
      .exec('', { language: 'python', code: restoreSwapper(outside), signal: stop.signal, timeoutMs: 60_000 })
      .catch((error: unknown) => error);
    try {
      await vi.waitFor(() => sandbox.readFile('ready'), { timeout: 10_000, interval: 20 });
      for (let i = 0; i < 40; i++) await sandbox.restore(id).catch(() => undefined);
    } finally {
      stop.abort();
      await swapping;
      await sandbox.dispose();
    }
    expect(await readdir(outside)).toEqual([]);
  });
});
