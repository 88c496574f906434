import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import { ModelError } from '../../src/core/errors.js';
import { instrument, NOT_CLOSED } from '../../src/otel/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { memoryTracer, ms, parentOf, span, tree } from './helpers.js';

const T0 = 1_000_000;

/** An executor whose model calls take 100 ms and whose tools take 30 ms of fake time. */
function setup(script: (clock: ReturnType<typeof testRuntime>['clock']) => ScriptEntry[]) {
  const runtime = testRuntime({ start: T0 });
  const clock = runtime.clock;
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      await clock.advance(30);
      return a + b;
    },
  });
  const boom = defineTool({
    name: 'boom',
    description: 'Always fails',
    parameters: z.object({}),
    execute: () => {
      throw new Error('kaboom');
    },
  });
  const hang = defineTool({
    name: 'hang',
    description: 'Never returns',
    parameters: z.object({}),
    execute: () => new Promise<never>(() => {}),
  });
  const model = new ScriptedModel(script(clock));
  const executor = new Executor({ model, tools: [add, boom, hang], runtime });
  return { executor, clock, ...memoryTracer() };
}

const slow =
  (clock: ReturnType<typeof testRuntime>['clock'], step: Exclude<ScriptEntry, Function>): ScriptEntry =>
  async () => {
    await clock.advance(100);
    return step;
  };

describe('instrument: an Executor run', () => {
  it('records the run, its executing stage and each tool call as a span tree on the run clock', async () => {
    const { executor, tracer, spans } = setup((clock) => [
      slow(clock, {
        toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }],
        usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 },
      }),
      slow(clock, { text: 'The sum is 3.', usage: { inputTokens: 20, outputTokens: 3 } }),
    ]);
    const run = executor.run('What is 1 + 2?');
    instrument(run, { tracer, attributes: { 'app.tenant': 'acme' } });
    await run.result;

    const all = spans();
    expect(tree(all)).toEqual(['invoke_agent tandem', '  tandem.stage executing', '    execute_tool add']);
    const root = span(all, 'invoke_agent tandem');
    const stage = span(all, 'tandem.stage executing');
    const tool = span(all, 'execute_tool add');
    expect(parentOf(all, stage)).toBe(root);
    expect(parentOf(all, tool)).toBe(stage);
    expect(root.spanContext().traceId).toBe(tool.spanContext().traceId);

    expect([ms(root.startTime), ms(root.endTime)]).toEqual([T0, T0 + 230]);
    expect([ms(stage.startTime), ms(stage.endTime)]).toEqual([T0, T0 + 230]);
    expect([ms(tool.startTime), ms(tool.endTime)]).toEqual([T0 + 100, T0 + 130]);

    expect(root.status.code).toBe(SpanStatusCode.OK);
    expect(root.attributes).toMatchObject({
      'app.tenant': 'acme',
      'tandem.run.id': run.runId,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'executor',
      'tandem.run.status': 'success',
      'tandem.output.length': 'The sum is 3.'.length,
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.usage.cache_read.input_tokens': 4,
      'gen_ai.usage.reasoning.output_tokens': 2,
    });
    expect(stage.status.code).toBe(SpanStatusCode.OK);
    expect(stage.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 8,
    });
    expect(tool.status.code).toBe(SpanStatusCode.OK);
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'gen_ai.tool.call.id': expect.any(String),
      'gen_ai.agent.name': 'executor',
      'tandem.tool.duration_ms': 30,
    });
    expect(all.flatMap((s) => s.events)).toEqual([]);
  });

  it('marks a tool span ERROR when the tool fails, and the run still succeeds', async () => {
    const { executor, tracer, spans } = setup(() => [
      { toolCalls: [{ name: 'boom', args: {} }] },
      { text: 'The tool failed.' },
    ]);
    const run = executor.run('Try boom');
    instrument(run, { tracer });
    await run.result;
    const tool = span(spans(), 'execute_tool boom');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool returned an error' });
    expect(tool.attributes['error.type']).toBe('tool_error');
    expect(span(spans(), 'invoke_agent tandem').status.code).toBe(SpanStatusCode.OK);
  });

  it('ends a failed run with status ERROR and an exception event, and closes the failed stage', async () => {
    const { executor, tracer, spans } = setup((clock) => [
      slow(clock, { error: new ModelError('bad_request', 'the model refused', { retryable: false }) }),
    ]);
    const run = executor.run('Do it');
    instrument(run, { tracer });
    expect((await run.result).error?.message).toContain('the model refused');

    const root = span(spans(), 'invoke_agent tandem');
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.status.message).toContain('the model refused');
    expect(root.attributes['error.type']).toBe('model');
    expect(root.events.map((e) => [e.name, e.attributes?.['exception.type'], ms(e.time)])).toEqual([
      ['exception', 'model', T0 + 100],
    ]);
    const stage = span(spans(), 'tandem.stage executing');
    expect(stage.status.code).toBe(SpanStatusCode.ERROR);
    expect(ms(root.endTime)).toBe(T0 + 100);
  });

  it('closes the spans of an aborted run: the interrupted tool call is an error, nothing stays open', async () => {
    const { executor, clock, tracer, spans } = setup(() => [{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const run = executor.run('Hang');
    instrument(run, { tracer });
    await clock.advance(50);
    run.abort();
    expect(await run.result).toMatchObject({ status: 'failed', error: { kind: 'aborted' } });
    const all = spans();
    expect(tree(all)).toEqual(['invoke_agent tandem', '  tandem.stage executing', '    execute_tool hang']);
    expect(all.every((s) => s.ended && s.status.code === SpanStatusCode.ERROR)).toBe(true);
    expect(all.some((s) => s.status.message === NOT_CLOSED)).toBe(false);
    expect(ms(span(all, 'execute_tool hang').endTime)).toBe(T0 + 50);
  });

  it('turns streamed tokens into nothing: no span, no span event, no call on the tracer or a span', async () => {
    const { executor, tracer, spans } = setup(() => [
      { text: 'word '.repeat(300), reasoning: 'think '.repeat(100) },
    ]);
    let calls = 0;
    const run = executor.run('Talk');
    instrument(run, { tracer: counting(tracer, () => calls++) });
    const seen: Array<[string, number]> = [];
    run.on('*', (e) => seen.push([e.type, calls]));
    await run.result;

    const deltas = seen.flatMap(([type], i) => (type === 'token' || type === 'reasoning' ? [i] : []));
    expect(deltas.length).toBeGreaterThan(300);
    expect(seen.some(([type]) => type === 'reasoning')).toBe(true);
    for (const i of deltas) expect(seen[i]![1]).toBe(seen[i - 1]![1]);
    expect(spans().map((s) => s.name)).toEqual(['tandem.stage executing', 'invoke_agent tandem']);
    expect(spans().flatMap((s) => s.events)).toEqual([]);
  });
});

/** `target` with every method call counted, spans it starts included. */
function counting<T extends object>(target: T, count: () => void): T {
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key, t);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count();
        const result = value.apply(t, args);
        return key === 'startSpan' ? counting(result, count) : result;
      };
    },
  });
}
