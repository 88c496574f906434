import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import { AbortError, RunError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/seams.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { add, callAdd, deferred, ofType, runCollect, setup } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

function waitTool(started: () => void) {
  return defineTool({
    name: 'wait',
    description: 'Waits until aborted',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise((_, reject) => {
        started();
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      }),
  });
}
const callWait = { toolCalls: [{ name: 'wait', args: {} }] };

describe('abort', () => {
  it('aborts mid-tool: the tool sees the signal, its call gets a result, the run ends aborted', async () => {
    const started = deferred();
    let toolSignal: AbortSignal | undefined;
    const tool = defineTool({
      name: 'wait',
      description: 'Waits',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        toolSignal = ctx.signal;
        started.resolve();
        return new Promise(() => {});
      },
    });
    const { executor } = setup([callWait], { tools: [tool] });
    const { error, events } = await runCollect(executor, 'q', {}, async (run) => {
      await started.promise;
      run.abort();
    });
    expect(error).toBeInstanceOf(AbortError);
    expect(error.kind).toBe('aborted');
    expect(toolSignal?.aborted).toBe(true);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true });
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'aborted' } });
    expectInvariants(events);
  });

  it('aborts a hanging model call through the caller’s signal', async () => {
    const controller = new AbortController();
    let modelSignal: AbortSignal | undefined;
    const model = new ScriptedModel([{ hang: true }]);
    const original = model.stream!;
    (model as { stream: typeof original }).stream = (request, options) => {
      modelSignal = options?.signal;
      queueMicrotask(() => controller.abort(new Error('user left')));
      return original(request, options);
    };
    const { executor } = setup([], { model });
    const { error, events } = await runCollect(executor, 'q', { signal: controller.signal });
    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toContain('user left');
    expect(modelSignal?.aborted).toBe(true);
    expect(ofType(events, 'stage').map((e) => e.status)).toEqual(['running', 'failed']);
    expectInvariants(events);
  });

  it('fails at once when the caller’s signal is already aborted', async () => {
    const { executor, model } = setup([{ text: 'never' }]);
    const { error, events } = await runCollect(executor, 'q', { signal: AbortSignal.abort() });
    expect(error.kind).toBe('aborted');
    expect(model.calls).toBe(0);
    expectInvariants(events);
  });

  it('stops between turns when the caller aborts during a model call', async () => {
    const controller = new AbortController();
    const runtime = testRuntime();
    const model = new ScriptedModel([
      () => {
        controller.abort();
        return callAdd(1, 1);
      },
      { text: 'never' },
    ]);
    const { executor } = setup([], { model, runtime });
    const run = executor.run('q', { signal: controller.signal });
    const result = await run.result;
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(AbortError);
    expect(model.calls).toBe(1);
  });
});

describe('wall-clock budget', () => {
  it('aborts in-flight tools when the budget expires and fails with kind timeout', async () => {
    let started = false;
    const { executor, clock } = setup([callWait], {
      tools: [waitTool(() => (started = true))],
      limits: { timeoutMs: 270_000 },
    });
    const { error, events } = await runCollect(executor, 'q', {}, async () => {
      await clock.advance(269_999);
      expect(started).toBe(true);
      await clock.advance(1);
    });
    expect(error).toBeInstanceOf(RunError);
    expect(error.kind).toBe('timeout');
    expect(ofType(events, 'tool_result')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial', error: { kind: 'timeout' } });
    expectInvariants(events);
  });

  it('defaults to 270 s', async () => {
    const { executor, clock } = setup([callWait], { tools: [waitTool(() => {})] });
    const { error } = await runCollect(executor, 'q', {}, async () => {
      await clock.advance(269_000);
      await clock.advance(1_000);
    });
    expect(error.kind).toBe('timeout');
  });

  it('checks the budget between turns on the runtime clock', async () => {
    let now = 0;
    const clock: Clock = { now: () => now, setTimer: () => () => {} };
    const model = new ScriptedModel([
      () => {
        now += 300_000;
        return callAdd(1, 1);
      },
      { text: 'too late' },
    ]);
    const executor = new Executor({ model, tools: [add], runtime: { ...testRuntime(), clock } });
    expect(await executor.run('q').result).toMatchObject({ status: 'partial', error: { kind: 'timeout' } });
    expect(model.calls).toBe(1);
  });

  it('cancels its timer when the execution ends', async () => {
    const { executor, clock } = setup([{ text: 'quick' }]);
    await runCollect(executor, 'q');
    expect(clock.pending).toBe(0);
  });
});
