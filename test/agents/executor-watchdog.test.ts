/**
 * A run's deadlines share one timer: its wall clock and the stall watch of
 * each model call. A stall is still found from the stalled call's own last
 * chunk, an abort still settles a call whose adapter ignores it, and nothing
 * is left armed once the run ends.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { AbortError, defineTool, Executor } from '../../src/index.js';
import type { ChatModel, ModelStreamPart } from '../../src/model/types.js';
import { testRuntime } from '../../src/testing/index.js';

const STALE_MS = 180_000;
const never = () => new Promise<never>(() => {});
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** A streaming model that plays `calls` in order: parts, or a stall (nothing, for ever, deaf to its signal). */
function streamingModel(calls: Array<ModelStreamPart[] | 'stall' | Promise<ModelStreamPart[]>>) {
  const started: number[] = [];
  let now = () => 0;
  const model: ChatModel = {
    id: 'test:stream',
    generate: () => never(),
    async *stream() {
      started.push(now());
      const call = calls[started.length - 1];
      if (call === undefined || call === 'stall') await never();
      else yield* await call;
    },
  };
  return { model, started, useClock: (clock: { now(): number }) => (now = () => clock.now()) };
}

const toolTurn: ModelStreamPart[] = [
  { type: 'tool-call', id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' },
  { type: 'finish', finishReason: 'tool_calls', usage },
];
const answer: ModelStreamPart[] = [
  { type: 'text-delta', delta: 'three' },
  { type: 'finish', finishReason: 'stop', usage },
];

describe('Executor: one timer per run', () => {
  it('keeps one timer armed while a call waits: the wall clock and the stall watch share it', async () => {
    const runtime = testRuntime();
    const { model, useClock } = streamingModel(['stall']);
    useClock(runtime.clock);
    const run = new Executor({ model, runtime }).run('hi');
    const settled = run.result;
    await runtime.clock.advance(0);
    expect(runtime.clock.pending).toBe(1);
    run.abort();
    expect((await settled).error).toBeInstanceOf(AbortError);
    expect(runtime.clock.pending).toBe(0);
  });

  it("finds a stall from the stalled call's own start, after earlier calls, and retries it", async () => {
    const runtime = testRuntime();
    let releaseFirst: (parts: ModelStreamPart[]) => void = () => {};
    const first = new Promise<ModelStreamPart[]>((resolve) => {
      releaseFirst = resolve;
    });
    const { model, started, useClock } = streamingModel([first, 'stall', answer]);
    useClock(runtime.clock);
    const run = new Executor({ model, tools: [add], runtime }).run('add 1 and 2');
    const retries: Array<{ at: number; kind: string }> = [];
    run.on('retry', (e) => retries.push({ at: e.at, kind: e.error.kind }));
    const settled = run.result;
    // The first call takes 50 s: the second starts at 50 s and stalls (found at 230 s, inside the 270 s wall clock).
    await runtime.clock.advance(50_000);
    releaseFirst(toolTurn);
    const result = await runtime.clock.run(settled);
    expect(result.status).toBe('success');
    expect(result.output).toBe('three');
    expect(started.slice(0, 2)).toEqual([0, 50_000]);
    expect(retries).toEqual([{ at: 50_000 + STALE_MS, kind: 'timeout' }]);
    expect(runtime.clock.pending).toBe(0);
  });
});
