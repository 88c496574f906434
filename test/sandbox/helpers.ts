import { readdirSync, readFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
import { PIPE_GRACE_MS } from '../../src/sandbox/process.js';
import type { FakeClock } from '../../src/testing/index.js';

/** True when `pid` is a live (not zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker) && isAlive(Number(name))) found.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** A `sleep` duration unique to one test, so its processes can be found by command line. */
export function uniqueSleep(): string {
  return `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Pids of live `sleep <duration>` processes (past their `exec`, so past any `setsid` before it). */
export function sleepers(duration: string): number[] {
  return processesWith(duration).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${duration}\0`;
    } catch {
      return false;
    }
  });
}

/**
 * Awaits `work`, firing the fake clock's timers due within `PIPE_GRACE_MS` as
 * they are set (an exec's pipe grace periods, a cgroup's removal retries):
 * a bounded poll on the real condition (settled), no real sleep racing it.
 * Timers further away (an exec's deadline) never fire here.
 */
export async function settle<T>(clock: FakeClock, work: Promise<T>): Promise<T> {
  let done = false;
  const outcome = work.finally(() => {
    done = true;
  });
  outcome.catch(() => {});
  await vi.waitFor(
    async () => {
      const next = clock.nextTimerIn();
      if (!done && next !== undefined && next <= PIPE_GRACE_MS) await clock.advance(next);
      expect(done).toBe(true);
    },
    { timeout: 10_000, interval: 10 },
  );
  return outcome;
}
