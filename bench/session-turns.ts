/** What the session benches share: a turn of the workload and a median of async samples. */
import type { Message } from '../src/index.js';

/** Turn `n` of the workload: a question and its answer. */
export const turn = (n: number): Message[] => [
  { role: 'user', content: `question ${n}: ${'lorem ipsum '.repeat(8)}` },
  { role: 'assistant', content: [{ type: 'text', text: `answer ${n}: ${'dolor sit amet '.repeat(12)}` }] },
];

/** Median ms of `runs` calls of `fn` after `warmup` untimed ones (called with negative indices). */
export async function median(runs: number, fn: (i: number) => Promise<unknown>, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 1000) / 1000;
}
