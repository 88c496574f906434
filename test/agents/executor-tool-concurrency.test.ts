import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sleep } from '../../src/core/seams.js';
import { Executor } from '../../src/index.js';
import { testRuntime } from '../../src/testing/fake-clock.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

const RUNS = 200;

/** One Executor shared by `RUNS` concurrent runs, each turn calling two parallel-safe 50 ms tools. */
function sharedExecutor(limits: { toolLimiter?: <T>(task: () => Promise<T>) => Promise<T> } = {}) {
  const runtime = testRuntime();
  let running = 0;
  let peak = 0;
  const wait = defineTool({
    name: 'wait',
    description: 'Waits 50 ms',
    parameters: z.object({ n: z.number() }),
    parallelSafe: true,
    execute: async (_args, ctx) => {
      peak = Math.max(peak, ++running);
      try {
        await sleep(runtime.clock, 50, ctx.signal);
        return 'ok';
      } finally {
        running--;
      }
    },
  });
  const model = new ScriptedModel(
    [
      (request) =>
        request.messages.some((m) => m.role === 'tool')
          ? { text: 'done' }
          : {
              toolCalls: [
                { name: 'wait', args: { n: 1 } },
                { name: 'wait', args: { n: 2 } },
              ],
            },
    ],
    { loop: true },
  );
  const executor = new Executor({ model, tools: [wait], runtime, stream: false, limits });
  return { executor, runtime, peak: () => peak };
}

describe('tool concurrency', () => {
  it('is capped per turn: 200 concurrent runs on one Executor do not queue behind each other', async () => {
    const { executor, runtime, peak } = sharedExecutor();
    const start = runtime.clock.now();
    const results = await runtime.clock.run(
      Promise.all(Array.from({ length: RUNS }, () => executor.run('go').result)),
    );
    expect(results.every((r) => r.status === 'success')).toBe(true);
    expect(peak()).toBe(RUNS * 2);
    expect(runtime.clock.now() - start).toBe(50);
  });

  it('a limiter the user passes caps tool calls across every run', async () => {
    const { executor, runtime, peak } = sharedExecutor({ toolLimiter: pLimit(10) });
    const start = runtime.clock.now();
    await runtime.clock.run(Promise.all(Array.from({ length: RUNS }, () => executor.run('go').result)));
    expect(peak()).toBe(10);
    expect(runtime.clock.now() - start).toBe((RUNS * 2 * 50) / 10);
  });
});
