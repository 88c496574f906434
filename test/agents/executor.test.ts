import { describe, expect, it } from 'vitest';
import { Executor, executeOn } from '../../src/agents/executor/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { add, allText, callAdd, ofType, runCollect, SYSTEM, setup } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

describe('Executor: the ReAct loop', () => {
  it('calls a tool, feeds the result back and returns the final answer', async () => {
    const { model, executor } = setup([callAdd(2, 3), { text: 'The sum is 5.' }]);
    const { result, events } = await runCollect(executor, 'What is 2 + 3?');
    expect(result).toMatchObject({ output: 'The sum is 5.', status: 'success', iterations: 2, toolCalls: 1 });
    expect(result!.finishReason).toBe('stop');
    const second = model.requests[1]!;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.messages[2]).toMatchObject({
      content: [{ toolName: 'add', content: '5', isError: false }],
    });
    expect(second.tools?.map((t) => t.name)).toEqual(['add']);
    expect(result!.newMessages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(result!.messages).toHaveLength(4);
    expectInvariants(events);
    model.assertConsumed();
  });

  it('sends the system prompt in request.system and never inside a message', async () => {
    const { model, executor } = setup([callAdd(1, 1), { text: 'two' }]);
    await runCollect(executor, 'one plus one', { history: [{ role: 'user', content: 'hi' }] });
    for (const request of model.requests) {
      expect(request.system).toBe(SYSTEM);
      expect(allText(request.messages)).not.toContain(SYSTEM);
    }
  });

  it('uses the per-execution system prompt over the instructions', async () => {
    const { model, executor } = setup([{ text: 'ok' }]);
    await runCollect(executor, 'q', { system: 'Other prompt' });
    expect(model.requests[0]!.system).toBe('Other prompt');
  });

  it('keeps history first and does not modify the caller’s history array', async () => {
    const history = [
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'noted' }] },
    ];
    const { model, executor } = setup([{ text: 'ok' }]);
    const { result } = await runCollect(executor, 'now', { history });
    expect(history).toHaveLength(2);
    expect(model.requests[0]!.messages.map((m) => m.content)).toEqual([
      history[0]!.content,
      history[1]!.content,
      'now',
    ]);
    expect(result!.messages).toHaveLength(4);
    expect(result!.newMessages).toHaveLength(1);
  });

  it('returns the last tool results as the output when the model ends without text', async () => {
    const { executor } = setup([callAdd(20, 22), { text: '' }]);
    const { result } = await runCollect(executor, 'add them');
    expect(result).toMatchObject({ output: '42', status: 'success' });
  });

  it('labels each result when the last turn ran several tools and the model ends without text', async () => {
    const { executor } = setup([
      {
        toolCalls: [
          { name: 'add', args: { a: 1, b: 1 } },
          { name: 'add', args: { a: 2, b: 2 } },
        ],
      },
      { text: '' },
    ]);
    const { result } = await runCollect(executor, 'add both');
    expect(result!.output).toBe('add: 2\n\nadd: 4');
  });

  it('emits usage after each model call with that call and the running total', async () => {
    const { executor } = setup([
      { ...callAdd(1, 2), usage: { inputTokens: 10, outputTokens: 3 } },
      { text: 'done', usage: { inputTokens: 15, outputTokens: 4 } },
    ]);
    const { events, result } = await runCollect(executor, 'go');
    const usage = ofType(events, 'usage');
    expect(usage).toHaveLength(2);
    expect(usage[0]).toMatchObject({
      model: 'scripted:model',
      usage: { inputTokens: 10 },
      total: { inputTokens: 10 },
    });
    expect(usage[1]).toMatchObject({
      usage: { inputTokens: 15 },
      total: { inputTokens: 25, outputTokens: 7 },
    });
    expect(result!.usage).toMatchObject({ inputTokens: 25, outputTokens: 7 });
    expect(ofType(events, 'complete')[0]!.usage).toMatchObject({ inputTokens: 25 });
  });

  it('streams token and reasoning events when the model streams', async () => {
    const { executor } = setup([{ text: 'three short words', reasoning: 'think' }]);
    const { events } = await runCollect(executor, 'q');
    expect(
      ofType(events, 'token')
        .map((e) => e.delta)
        .join(''),
    ).toBe('three short words');
    expect(ofType(events, 'reasoning').map((e) => e.delta)).toEqual(['think']);
  });

  it('calls generate and emits no token events with stream: false', async () => {
    const { executor } = setup([{ text: 'whole reply' }], { stream: false });
    const { events, result } = await runCollect(executor, 'q');
    expect(result!.output).toBe('whole reply');
    expect(ofType(events, 'token')).toHaveLength(0);
  });

  it('matches tool_call and tool_result ids and tags events with the agent name', async () => {
    const { executor } = setup([callAdd(1, 2), { text: 'ok' }], { name: 'calc' });
    const { events } = await runCollect(executor, 'q', { stepId: 's1' });
    const [call] = ofType(events, 'tool_call');
    const [result] = ofType(events, 'tool_result');
    expect(call).toMatchObject({ name: 'add', args: { a: 1, b: 2 }, agent: 'calc', stepId: 's1' });
    expect(result).toMatchObject({ id: call!.id, output: '3', isError: false });
  });

  it('emits run_started, stage executing running → completed and one complete', async () => {
    const { executor } = setup([{ text: 'hi' }]);
    const { events } = await runCollect(executor, 'hello');
    expect(events.map((e) => e.type)).toEqual([
      'run_started',
      'stage',
      'token',
      'usage',
      'stage',
      'complete',
    ]);
    expect(events[0]).toMatchObject({ input: 'hello', seq: 1 });
    expect(ofType(events, 'stage').map((e) => e.status)).toEqual(['running', 'completed']);
    expect(events.at(-1)).toMatchObject({ type: 'complete', output: 'hi', status: 'success' });
  });

  it('an execution started by another agent runs on its emitter without run_started or a terminal event', async () => {
    const runtime = testRuntime();
    const bus = new EventBus({ runId: 'run_outer', clock: runtime.clock });
    const events: TandemEvent[] = [];
    bus.on('*', (e) => events.push(e));
    const model = new ScriptedModel([callAdd(1, 2), { text: 'three' }]);
    const executor = new Executor({ model, tools: [add], runtime });
    const result = await executeOn(executor, 'q', {
      emit: bus.scope({ parentId: 'orchestrator' }),
      stepId: 'step-2',
    });
    expect(result.output).toBe('three');
    expect(events.some((e) => e.type === 'run_started' || e.type === 'complete' || e.type === 'stage')).toBe(
      false,
    );
    expect(
      events.every((e) => e.runId === 'run_outer' && e.stepId === 'step-2' && e.parentId === 'orchestrator'),
    ).toBe(true);
    expectInvariants(events, { terminal: false });
  });

  it('accepts a ToolRegistry and sees tools registered later', async () => {
    const registry = new ToolRegistry();
    const { model, executor } = setup([callAdd(1, 2), { text: 'ok' }], { tools: registry });
    registry.register(add);
    const { result } = await runCollect(executor, 'q');
    expect(result!.output).toBe('ok');
    expect(model.requests[0]!.tools?.map((t) => t.name)).toEqual(['add']);
  });

  it('lets prepareRequest replace the outgoing request', async () => {
    const seen: number[] = [];
    const { model, executor } = setup([callAdd(1, 2), { text: 'ok' }], {
      context: {
        prepareRequest: (request, info) => {
          seen.push(info.iteration);
          return { ...request, temperature: 0.5 };
        },
      },
    });
    await runCollect(executor, 'q');
    expect(seen).toEqual([0, 1]);
    expect(model.requests.map((r) => r.temperature)).toEqual([0.5, 0.5]);
  });

  it('passes temperature and maxOutputTokens and omits tools when there are none', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    const executor = new Executor({
      model,
      modelSettings: { temperature: 0.2, maxOutputTokens: 99 },
      runtime: testRuntime(),
    });
    await executor.run('q').result;
    expect(model.requests[0]).toMatchObject({ temperature: 0.2, maxOutputTokens: 99 });
    expect(model.requests[0]!.tools).toBeUndefined();
    expect(model.requests[0]!.system).toBeUndefined();
  });
});

describe('Executor: iteration budget', () => {
  const forever = () => callAdd(1, 1);

  it.each([
    ['flash', 3],
    ['pro', 5],
    ['max', 10],
  ] as const)('a %s budget of %i model turns allows that many', async (_profile, turns) => {
    const model = new ScriptedModel([forever], { loop: true });
    const { executor } = setup([], { model, limits: { maxIterations: turns } });
    const { result } = await runCollect(executor, 'loop');
    expect(model.calls).toBe(turns);
    expect(result!.iterations).toBe(turns);
  });

  it('defaults to 10 turns', async () => {
    const model = new ScriptedModel([forever], { loop: true });
    const { executor } = setup([], { model });
    await runCollect(executor, 'loop');
    expect(model.calls).toBe(10);
  });

  it('ends partial with a max_iterations error and the last tool results as output', async () => {
    const { model, executor } = setup([callAdd(1, 1), callAdd(2, 2)], { limits: { maxIterations: 2 } });
    const { result, events } = await runCollect(executor, 'loop');
    expect(result).toMatchObject({
      status: 'partial',
      output: '4',
      iterations: 2,
      finishReason: 'tool_calls',
    });
    expect(result!.error).toMatchObject({ kind: 'max_iterations' });
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial' });
    model.assertConsumed();
  });

  it('rejects invalid limits with a ConfigError', () => {
    const model = new ScriptedModel([]);
    expect(() => new Executor({ model, limits: { maxIterations: 0 } })).toThrow(ConfigError);
    expect(() => new Executor({ model, limits: { timeoutMs: 0 } })).toThrow(ConfigError);
    expect(() => new Executor({ model, limits: { maxLengthContinuations: -1 } })).toThrow(ConfigError);
    expect(() => new Executor({ model, limits: { maxIterations: 'ultra' as never } })).toThrow(ConfigError);
    expect(() => new Executor({} as never)).toThrow(ConfigError);
  });
});
