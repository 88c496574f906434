import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../src/core/sandbox.js';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap.js';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { processesWith, uniqueSleep } from './helpers.js';

describe('many sandboxes at once', () => {
  it('20 sandboxes with running processes clean up fully on dispose', async () => {
    const sleep = uniqueSleep();
    const sandboxes: Array<Sandbox & { root: string }> = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? BubblewrapSandbox.create() : LocalProcessSandbox.create(),
      ),
    );
    const runs = sandboxes.map((s) =>
      s.exec(`sleep ${sleep} & echo started > started; wait`).catch((error: unknown) => error),
    );
    // Waits for the real processes to start, so dispose has something to kill: a bound, not a
    // race (20 sandboxes, half in namespaces, start slowly on 2 busy cores under coverage).
    await vi.waitFor(() => expect(sandboxes.every((s) => existsSync(join(s.root, 'started')))).toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
    expect(processesWith(sleep).length).toBeGreaterThanOrEqual(20);
    await Promise.all(sandboxes.map((s) => s.dispose()));
    for (const outcome of await Promise.all(runs)) expect(outcome).toMatchObject({ kind: 'disposed' });
    for (const s of sandboxes) expect(existsSync(s.root)).toBe(false);
    expect(processesWith(sleep)).toEqual([]);
  }, 40_000);
});
