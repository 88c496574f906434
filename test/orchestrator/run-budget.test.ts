import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, defineTool, Executor, isErrorOf, RunError, type TandemEvent } from '../../src/index.js';
import { createProgressStore } from '../../src/state/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { expectInvariants } from '../support/invariants.js';
import { decideComplex, planJson, setup } from './helpers.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look something up',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});

const toolTurn = (q: string) => ({ toolCalls: [{ name: 'lookup', args: { q } }], text: `looking up ${q}` });

describe('Executor run budget', () => {
  it('warns at 0.8 of the tool-call limit, then stops at 1 with a partial result of kind budget', async () => {
    const model = new ScriptedModel([
      toolTurn('a'),
      toolTurn('b'),
      toolTurn('c'),
      toolTurn('d'),
      toolTurn('e'),
    ]);
    const executor = new Executor({ model, tools: [lookup], runtime: testRuntime() });
    const run = executor.run('Find everything', { budget: { maxToolCalls: 5 } });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    const budget = events.filter((e) => e.type === 'budget');
    expect(budget).toMatchObject([
      { resource: 'tool_calls', used: 4, limit: 5, action: 'warn' },
      { resource: 'tool_calls', used: 5, limit: 5, action: 'stop' },
    ]);
    expect(result.status).toBe('partial');
    expect(isErrorOf(result.error, RunError) && result.error.kind).toBe('budget');
    expect(result.error?.message).toContain('tool calls 5 of 5');
    expect(result.toolCalls).toBeLessThanOrEqual(5);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial' });
    expectInvariants(events);
  });

  it('a cost limit counts priced calls and stops the run', async () => {
    const model = new ScriptedModel(
      [
        { ...toolTurn('a'), usage: { inputTokens: 100_000, outputTokens: 0 } },
        { ...toolTurn('b'), usage: { inputTokens: 100_000, outputTokens: 0 } },
        { text: 'never reached' },
      ],
      { id: 'openai:gpt-4o' },
    );
    const executor = new Executor({
      model,
      tools: [lookup],
      runtime: testRuntime(),
      limits: { budget: { maxCostUsd: 0.5 } },
    });
    const run = executor.run('Find it');
    const result = await run.result;
    expect(result.usage.costUsd).toBeCloseTo(0.5);
    expect(result.status).toBe('partial');
    expect(result.error).toMatchObject({ kind: 'budget' });
    expect(model.calls).toBe(2);
  });

  it('the wall-clock limit stops a run waiting on a slow tool, on the clock seam', async () => {
    const runtime = testRuntime();
    const slow = defineTool({
      name: 'slow',
      description: 'Takes long',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }]);
    const executor = new Executor({ model, tools: [slow], runtime });
    const run = executor.run('Wait', { budget: { maxWallClockMs: 10_000 } });
    const events: TandemEvent[] = [];
    run.on('budget', (e) => events.push(e));
    await runtime.clock.advance(8_000);
    expect(events).toMatchObject([{ resource: 'wall_clock', action: 'warn' }]);
    await runtime.clock.advance(2_000);
    const result = await run.result;
    expect(events.at(-1)).toMatchObject({ action: 'stop' });
    expect(result).toMatchObject({ status: 'partial', error: { kind: 'budget' } });
  });

  it('rejects an invalid limit before the run starts', () => {
    const model = new ScriptedModel([{ text: 'hi' }]);
    const executor = new Executor({ model, runtime: testRuntime() });
    expect(() => executor.run('x', { budget: { maxTokens: -1 } })).toThrow(ConfigError);
    expect(model.calls).toBe(0);
  });
});

describe('Orchestrator run budget and cost', () => {
  it('stops a planned run at its token limit with the completed steps as a partial answer', async () => {
    const tokens = (n: number) => ({ inputTokens: n, outputTokens: 0 });
    const { orchestrator, models } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }, { id: 's3' }]) }],
        executor: [
          { text: 'step one done', usage: tokens(600) },
          { text: 'step two done', usage: tokens(600) },
          { text: 'step three done', usage: tokens(600) },
        ],
        verifier: [{ text: 'PASS' }],
        finalizer: [{ text: 'final' }],
      },
      { limits: { budget: { maxTokens: 1000 } } },
    );
    const run = orchestrator.run('Do three things');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(result.status).toBe('partial');
    expect(result.error).toMatchObject({ kind: 'budget' });
    expect(result.output).toContain('step one done');
    expect(result.output).toContain('step two done');
    expect(result.output).not.toContain('step three done');
    expect(models.finalizer.calls).toBe(0);
    expect(events.filter((e) => e.type === 'budget').map((e) => e.type === 'budget' && e.action)).toEqual([
      'stop',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial' });
    expect(run.state().status).toBe('running');

    // Resumed with a larger budget, the run finishes the remaining step only; what it spent counts.
    const resumed = orchestrator.resume(run.state(), { budget: { maxTokens: 5000 } });
    const done = await resumed.result;
    expect(done.status).toBe('success');
    expect(models.executor.calls).toBe(3);
    expect(done.usage.inputTokens).toBe(1800);
  });

  it('carries costUsd per call, per step, in the progress store and in the result', async () => {
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
        executor: [{ text: 'done', usage: { inputTokens: 1_000_000, outputTokens: 0 } }],
        verifier: [{ text: 'PASS' }],
        finalizer: [{ text: 'final' }],
      },
      { prices: { 'scripted:executor': { input: 2, output: 4 } } },
    );
    const run = orchestrator.run('One thing');
    const store = createProgressStore(run);
    const result = await run.result;
    expect(result.usage.costUsd).toBeCloseTo(2);
    const state = store.getState();
    expect(state.usage.costUsd).toBeCloseTo(2);
    expect(state.plan?.steps[0]?.usage?.costUsd).toBeCloseTo(2);
  });

  it('prices: false turns cost accounting off', async () => {
    const { orchestrator } = setup(
      {
        planner: [{ text: '{"needsPlan": false, "reasoning": "simple"}' }],
        executor: [{ text: 'done', usage: { inputTokens: 10, outputTokens: 0 } }],
      },
      { prices: false },
    );
    const result = await orchestrator.run('One thing').result;
    expect(result.usage.costUsd).toBeUndefined();
  });
});
