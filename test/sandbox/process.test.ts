import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/seams.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { runProcess, type SpawnSpec } from '../../src/sandbox/process.js';

const run = (spec: SpawnSpec) =>
  runProcess(spec, { clock: systemClock, timeoutMs: 10_000, maxOutputBytes: 10_000, signals: [] });

describe('runProcess placement gate', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tandem-process-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('places the child before its command starts, then runs it in the same process', async () => {
    let placed: { pid: number; cmdline: string } | undefined;
    const result = await run({
      file: '/bin/sh',
      args: ['-c', 'echo $$'],
      env: {},
      cwd: dir,
      place: async (pid) => {
        placed = { pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8') };
      },
    });
    expect(result.exitCode).toBe(0);
    expect(Number(result.stdout)).toBe(placed?.pid);
    // Still the gate, waiting: the command had not run yet.
    expect(placed?.cmdline).toContain('read -r _');
  });

  it('rejects with the typed placement error and never starts the command when placement fails', async () => {
    const marker = join(dir, 'started');
    const outcome = await run({
      file: '/bin/sh',
      args: ['-c', `touch ${marker}`],
      env: {},
      cwd: dir,
      place: () => Promise.reject(new SandboxError('io', 'no cgroup')),
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(SandboxError);
    expect(outcome).toMatchObject({ kind: 'io', message: 'no cgroup' });
    expect(existsSync(marker)).toBe(false);
  });
});
