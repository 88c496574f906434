/**
 * Deaf-adapter bench: how long a run takes to settle after its signal aborts
 * when the model adapter ignores the signal and never answers (the run races
 * every model call against its signal). 200 runs; prints p50, p99 and max.
 * Run: `npx tsx bench/deaf-adapter.mts`.
 */
import { type ChatModel, Executor } from '../src/index.js';

const deaf: ChatModel = {
  id: 'bench:deaf',
  generate: () => new Promise(() => {}),
};

const times: number[] = [];
for (let i = 0; i < 200; i++) {
  const controller = new AbortController();
  const run = new Executor({ model: deaf, tools: [] }).run('hi', { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 2));
  const started = performance.now();
  controller.abort();
  await run.result.catch(() => {});
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const ms = (i: number) => (times[i] ?? Number.NaN).toFixed(3);
console.log(`deaf adapter, abort → settled: p50 ${ms(100)} ms, p99 ${ms(197)} ms, max ${ms(199)} ms`);
