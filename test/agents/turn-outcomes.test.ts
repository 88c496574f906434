/**
 * Every way a turn can end, seen through the public API: the run resolves
 * with a result whose status and error say how it ended; only misuse
 * rejects. Stops are decided where they are detected (the loop, at its
 * turn boundaries), never by an event listener.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AbortError,
  ApprovalGate,
  ConfigError,
  defineTool,
  EventBus,
  Executor,
  MemoryInterruptBus,
  ModelError,
  Orchestrator,
  RunError,
  type ToolGate,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { add, callAdd, runCollect, setup } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

afterEach(() => vi.restoreAllMocks());

describe('an executor turn ends as data', () => {
  it('answer: resolves success with the answer and no error', async () => {
    const { executor } = setup([callAdd(2, 3), { text: 'five' }]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ status: 'success', output: 'five' });
    expect(result!.error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'success' });
    expect(events.at(-1)).not.toHaveProperty('error');
  });

  it('stopped (max_iterations): resolves partial with the last tool results', async () => {
    const { executor } = setup([callAdd(1, 1), callAdd(2, 2)], { limits: { maxIterations: 2 } });
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ status: 'partial', output: '4', error: { kind: 'max_iterations' } });
  });

  it('stopped (length): resolves partial with the text so far', async () => {
    const cut = { text: 'part', finishReason: 'length' as const };
    const { executor } = setup([cut, cut], { limits: { maxLengthContinuations: 1 } });
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ status: 'partial', output: 'partpart', error: { kind: 'length' } });
  });

  it('stopped (budget): resolves partial with kind budget, and no listener of the core watches the run', async () => {
    const on = vi.spyOn(EventBus.prototype, 'on');
    const { executor, model } = setup([
      { ...callAdd(1, 1), usage: { inputTokens: 600, outputTokens: 0 } },
      { ...callAdd(2, 2), usage: { inputTokens: 600, outputTokens: 0 } },
      { text: 'never' },
    ]);
    const { result, events } = await runCollect(executor, 'q', { budget: { maxTokens: 1000 } });
    expect(result).toMatchObject({ status: 'partial', error: { kind: 'budget' } });
    // The call that crossed the limit is the last: its tool calls do not run.
    expect(model.calls).toBe(2);
    expect(result!.toolCalls).toBe(1);
    expect(events.filter((e) => e.type === 'budget')).toMatchObject([{ resource: 'tokens', action: 'stop' }]);
    // The test's own listener is the only one on the whole bus.
    expect(on.mock.calls.filter(([type]) => type === '*')).toHaveLength(1);
    expectInvariants(events);
  });

  it('an answer whose call spent the budget stands; its object comes from the answer, with no more calls', async () => {
    // A native JSON mode that cannot ride along with tools: the object would take a formatting call.
    const model = new ScriptedModel([{ text: '{"n": 5}', usage: { inputTokens: 2000, outputTokens: 0 } }], {
      info: { structuredOutput: 'json_schema' },
    });
    const output = z.object({ n: z.number() });
    const executor = new Executor({ model, tools: [add], output, runtime: testRuntime() });
    const result = await executor.run('q', { budget: { maxTokens: 1000 } }).result;
    expect(result).toMatchObject({ status: 'success', object: { n: 5 } });
    expect(model.calls).toBe(1);
  });

  it('stopped (wall_clock): resolves partial with kind timeout', async () => {
    const { executor, clock } = setup([{ hang: true }], { limits: { timeoutMs: 1_000 } });
    const run = executor.run('q');
    await clock.advance(1_000);
    expect(await run.result).toMatchObject({ status: 'partial', error: { kind: 'timeout' } });
  });

  it('stopped (aborted): resolves failed with an AbortError', async () => {
    const { executor } = setup([{ hang: true }]);
    const run = executor.run('q');
    await Promise.resolve();
    run.abort();
    const result = await run.result;
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(AbortError);
  });

  it('interrupted: resolves with the calls waiting for a human', async () => {
    const runtime = testRuntime();
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys',
      parameters: z.object({ env: z.string() }),
      risk: 'risky',
      execute: () => 'deployed',
    });
    const approvals = new ApprovalGate({ bus: new MemoryInterruptBus({ clock: runtime.clock }), runtime });
    const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'deploy', args: { env: 'prod' } }] }]);
    const executor = new Executor({
      model,
      tools: [deploy],
      safety: { gate: approvals.gate, pauseOnInterrupt: true },
      runtime,
    });
    const result = await executor.run('deploy').result;
    expect(result.status).toBe('interrupted');
    expect(result.error).toMatchObject({ kind: 'interrupted' });
    expect(result.interruptions).toMatchObject([
      { kind: 'approval', toolName: 'deploy', callId: 'c1', args: { env: 'prod' } },
    ]);
  });

  it('failed: a model failure resolves failed with a typed error instead of rejecting', async () => {
    const failure = new ModelError('auth', 'bad key', { retryable: false });
    const { executor } = setup([{ error: failure }]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result?.status).toBe('failed');
    expect(result?.error).toBeInstanceOf(RunError);
    expect(result?.error).toMatchObject({ kind: 'model', cause: failure });
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'model' } });
  });

  it('misuse still rejects: an output that is not a schema, given for one run', async () => {
    const { executor } = setup([{ text: 'hi' }]);
    const run = executor.run('q', { output: { type: 'object' } as never });
    await expect(run.result).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('the orchestrator reads how its executions ended', () => {
  const deferAll: ToolGate = (call) => ({
    allow: false,
    deferred: true,
    result: `Awaiting approval of ${call.tool.name}`,
  });

  it('pauses on an interrupted execution result, with no interrupt event to go by', async () => {
    const runtime = testRuntime();
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "one call"}' }]),
        executor: new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }] }]),
        verifier: false,
      },
      planning: { classify: 'llm' },
      tools: [add],
      safety: { gate: deferAll, pauseOnInterrupt: true },
      runtime,
    });
    const run = orchestrator.run('Add');
    const types: string[] = [];
    run.on('*', (e) => types.push(e.type));
    const result = await run.result;
    expect(types).not.toContain('interrupt');
    expect(result.status).toBe('interrupted');
    expect(run.state().status).toBe('paused');
  });

  it('resolves failed, like the executor, when the model fails', async () => {
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "one call"}' }]),
        executor: new ScriptedModel([{ error: new ModelError('auth', 'bad key', { retryable: false }) }]),
        verifier: false,
      },
      planning: { classify: 'llm' },
      runtime: testRuntime(),
    });
    const result = await orchestrator.run('Answer').result;
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ kind: 'model' });
  });
});
