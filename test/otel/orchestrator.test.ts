import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator } from '../../src/agents/index.js';
import { ModelError } from '../../src/core/errors.js';
import { instrument } from '../../src/otel/index.js';
import { type FakeClock, type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { memoryTracer, ms, parentOf, span, tree } from './helpers.js';

const T0 = 5_000_000;
const usage = (n: number) => ({ inputTokens: n, outputTokens: 1 });

const plan = (steps: Array<{ id: string; dependsOn?: string[] }>) => ({
  text: JSON.stringify({
    title: 'Sum plan',
    summary: 'Add, then report.',
    steps: steps.map((s) => ({ id: s.id, description: `do ${s.id}`, dependsOn: s.dependsOn ?? [] })),
  }),
});
const decideComplex = { text: '{"needsPlan": true, "reasoning": "several steps"}' };

/** Every model call takes 10 ms of fake time. */
const timed =
  (clock: FakeClock, step: Exclude<ScriptEntry, Function>): ScriptEntry =>
  async () => {
    await clock.advance(10);
    return step;
  };

function setup(scripts: (clock: FakeClock) => Record<'planner' | 'executor' | 'verifier', ScriptEntry[]>) {
  const runtime = testRuntime({ start: T0 });
  const s = scripts(runtime.clock);
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const orchestrator = new Orchestrator({
    models: {
      planner: new ScriptedModel(s.planner, { id: 'scripted:planner' }),
      executor: new ScriptedModel(s.executor, { id: 'scripted:executor' }),
      verifier: new ScriptedModel(s.verifier, { id: 'scripted:verifier' }),
      finalizer: ({ steps }) => steps.map((r) => r.output).join(' / '),
    },
    tools: [add],
    planning: { classify: 'llm' },
    runtime,
  });
  return { orchestrator, ...memoryTracer() };
}

const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

describe('instrument: an Orchestrator run', () => {
  it('nests plan steps under the executing stage and tool calls under their step, with usage where it was spent', async () => {
    const { orchestrator, tracer, spans } = setup((clock) => ({
      planner: [
        timed(clock, { ...decideComplex, usage: usage(10) }),
        timed(clock, { ...plan([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]), usage: usage(20) }),
      ],
      executor: [
        timed(clock, { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }], usage: usage(100) }),
        timed(clock, { text: 'found 3', usage: usage(100) }),
        timed(clock, { text: 'reported 3', usage: usage(50) }),
      ],
      verifier: [timed(clock, { text: 'PASS: all done', usage: usage(5) })],
    }));
    const run = orchestrator.run('Compute the sum then report it');
    instrument(run, { tracer });
    const result = await run.result;

    const all = spans();
    expect(tree(all)).toEqual([
      'invoke_agent tandem',
      '  tandem.stage classifying',
      '  tandem.stage planning',
      '  tandem.stage executing',
      '    tandem.plan_step s1',
      '      execute_tool add',
      '    tandem.plan_step s2',
      '  tandem.stage verifying',
      '  tandem.stage finalizing',
    ]);
    const root = span(all, 'invoke_agent tandem');
    const s1 = span(all, 'tandem.plan_step s1');
    const s2 = span(all, 'tandem.plan_step s2');
    expect(parentOf(all, s1)).toBe(span(all, 'tandem.stage executing'));
    expect(parentOf(all, span(all, 'execute_tool add'))).toBe(s1);

    // 2 planner calls, then s1 (2 calls), s2 (1 call), verifier: 10 ms each.
    expect([ms(root.startTime), ms(root.endTime)]).toEqual([T0, T0 + 60]);
    expect([ms(s1.startTime), ms(s1.endTime)]).toEqual([T0 + 20, T0 + 40]);
    expect([ms(s2.startTime), ms(s2.endTime)]).toEqual([T0 + 40, T0 + 50]);
    expect(ms(span(all, 'execute_tool add').startTime)).toBe(T0 + 30);

    expect(s1.attributes).toMatchObject({
      'tandem.step.id': 's1',
      'tandem.step.attempt': 1,
      'tandem.step.mode': 'normal',
      'tandem.plan.completed': 1,
      'tandem.plan.total': 2,
      'gen_ai.usage.input_tokens': 200,
    });
    expect(s2.attributes['gen_ai.usage.input_tokens']).toBe(50);
    expect(span(all, 'tandem.stage classifying').attributes['gen_ai.usage.input_tokens']).toBe(10);
    expect(span(all, 'tandem.stage planning').attributes['gen_ai.usage.input_tokens']).toBe(20);
    expect(span(all, 'tandem.stage verifying').attributes['gen_ai.usage.input_tokens']).toBe(5);
    expect(root.attributes['gen_ai.usage.input_tokens']).toBe(10 + 20 + 200 + 50 + 5);
    expect(root.attributes['gen_ai.usage.input_tokens']).toBe(result.usage.inputTokens);
    expect(all.every((s) => s.status.code === SpanStatusCode.OK)).toBe(true);

    expect(root.events.map((e) => e.name)).toEqual(['routing', 'plan_overview']);
    expect(root.events[0]!.attributes).toMatchObject({ 'tandem.routing.complexity': 'complex' });
    expect(root.events[1]!.attributes).toMatchObject({ 'tandem.plan.steps': ['s1', 's2'] });
  });

  it('records each attempt of a failing step as its own span: normal and enhanced fail, the takeover succeeds', async () => {
    const broken = { error: new ModelError('bad_request', 'model cannot do it', { retryable: false }) };
    const { orchestrator, tracer, spans } = setup(() => ({
      planner: [
        decideComplex,
        plan([{ id: 's1' }]),
        { text: 'Use the add tool with a=1 and b=2.' },
        { text: 'Planner finished the step: 3' },
      ],
      executor: [broken, broken],
      verifier: [{ text: 'PASS: ok' }],
    }));
    const run = orchestrator.run('Add numbers carefully');
    instrument(run, { tracer });
    await run.result;

    const attempts = named(spans(), 'tandem.plan_step s1');
    expect(
      attempts.map((s) => [
        s.attributes['tandem.step.attempt'],
        s.attributes['tandem.step.mode'],
        s.status.code,
      ]),
    ).toEqual([
      [1, 'normal', SpanStatusCode.ERROR],
      [2, 'enhanced', SpanStatusCode.ERROR],
      [3, 'takeover', SpanStatusCode.OK],
    ]);
    expect(attempts[0]!.status.message).toContain('model cannot do it');
    expect(attempts[0]!.attributes['tandem.step.will_retry']).toBe(true);
    const executing = span(spans(), 'tandem.stage executing');
    expect(attempts.every((s) => parentOf(spans(), s) === executing)).toBe(true);
  });
});
