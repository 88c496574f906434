/** Runs the append loop in a child process and SIGKILLs it once it has committed `batches` appends. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { SqlStore } from '../../src/postgres/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Resolves how many batches the child reported committed before the kill. */
export function appendUntilKilled(args: string[], batches: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/sql/fixtures/append-loop.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let reported = 0;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      reported += (chunk.toString().match(/appended/g) ?? []).length;
      if (reported >= batches && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve(reported)
        : reject(new Error(`append loop exited with ${code}:\n${stderr}`)),
    );
  });
}

/** The thread is readable, gap-free and made of whole batches, holding at least every reported one. */
export async function expectWholeBatches(store: SqlStore, reported: number): Promise<void> {
  const { items, lastSeq } = await store.session('crash').load();
  expect(lastSeq % 3).toBe(0);
  expect(lastSeq).toBeGreaterThanOrEqual(reported * 3);
  expect(items.map((i) => i.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
  const labels = items.map((i) => String(i.message.content).split(' ')[0]);
  expect(labels).toEqual(Array.from({ length: lastSeq }, (_, i) => `${Math.floor(i / 3) + 1}.${i % 3}`));
}
