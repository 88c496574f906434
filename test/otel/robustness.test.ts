import { context, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Executor } from '../../src/agents/index.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { PlanStepView, TandemEvent } from '../../src/core/events.js';
import { emptyUsage } from '../../src/core/usage.js';
import { instrument, NOT_CLOSED } from '../../src/otel/index.js';
import { FakeClock, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { memoryTracer, ms, parentOf, span, tree } from './helpers.js';

const T0 = 2_000_000;

function bus() {
  const clock = new FakeClock(T0);
  const events = new EventBus({
    runId: 'run_x',
    clock,
    onListenerError: (error) => listenerErrors.push(error),
  });
  return { bus: events, clock, ...memoryTracer() };
}
const listenerErrors: unknown[] = [];
afterEach(() => {
  expect(listenerErrors).toEqual([]);
  listenerErrors.length = 0;
  vi.restoreAllMocks();
});

const done = { output: 'ok', status: 'success', usage: emptyUsage() } as const;

describe('instrument: unmatched and out-of-order events', () => {
  it('ignores closes without an open span: a tool_result without its call, a stage or step never started', () => {
    const { bus: b, tracer, spans } = bus();
    instrument(b, { tracer });
    b.emit('run_started', { input: 'x' });
    b.emit('tool_result', { id: 'nope', name: 'add', output: '3', isError: false, durationMs: 1 });
    b.emit('stage', { name: 'planning', status: 'completed' });
    b.scope({ stepId: 's9' }).emit('plan_step_completed', { output: 'x', completed: 1, total: 1 });
    b.scope({ stepId: 's9' }).emit('plan_step_failed', {
      error: { kind: 'x', message: 'y' },
      willRetry: false,
    });
    b.emit('complete', done);
    expect(tree(spans())).toEqual(['invoke_agent tandem']);
    expect(span(spans(), 'invoke_agent tandem').status.code).toBe(SpanStatusCode.OK);
  });

  it('ends every span still open when the run errors, as ERROR "not closed" at the error time', async () => {
    const { bus: b, clock, tracer, spans } = bus();
    instrument(b, { tracer });
    b.emit('run_started', { input: 'x' });
    b.emit('stage', { name: 'executing', status: 'running' });
    const step = b.scope({ stepId: 's1', agent: 'executor' });
    step.emit('plan_step_started', {
      step: { id: 's1', description: 'd', dependsOn: [], status: 'running' },
      attempt: 1,
      mode: 'normal',
    });
    step.emit('tool_call', { id: 'c1', name: 'add', args: {} });
    await clock.advance(40);
    b.emit('error', { error: { kind: 'internal', message: 'crashed' } });

    const all = spans();
    expect(tree(all)).toEqual([
      'invoke_agent tandem',
      '  tandem.stage executing',
      '    tandem.plan_step s1',
      '      execute_tool add',
    ]);
    for (const name of ['tandem.stage executing', 'tandem.plan_step s1', 'execute_tool add']) {
      expect(span(all, name).status).toEqual({ code: SpanStatusCode.ERROR, message: NOT_CLOSED });
      expect(ms(span(all, name).endTime)).toBe(T0 + 40);
    }
    expect(span(all, 'invoke_agent tandem').status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'crashed',
    });
  });

  it('marks the root ERROR when the run completes with status failed', () => {
    const { bus: b, tracer, spans } = bus();
    instrument(b, { tracer });
    b.emit('run_started', { input: 'x' });
    b.emit('complete', { ...done, status: 'failed' });
    expect(span(spans(), 'invoke_agent tandem').status.code).toBe(SpanStatusCode.ERROR);
    expect(span(spans(), 'invoke_agent tandem').attributes['tandem.run.status']).toBe('failed');
  });

  it('starts the root at the first event when attached late, and ignores events after the end', () => {
    const { bus: b, tracer, spans } = bus();
    b.emit('run_started', { input: 'x' });
    b.emit('stage', { name: 'executing', status: 'running' });
    instrument(b, { tracer });
    b.scope({ agent: 'executor' }).emit('tool_call', { id: 'c1', name: 'add', args: {} });
    b.emit('tool_result', { id: 'c1', name: 'add', output: '3', isError: false, durationMs: 0 });
    b.emit('stage', { name: 'executing', status: 'completed' });
    b.emit('complete', done);
    b.dispatch('stage', { name: 'late', status: 'running' }, undefined);
    expect(tree(spans())).toEqual(['invoke_agent tandem', '  execute_tool add']);
    expect(span(spans(), 'invoke_agent tandem').attributes).toMatchObject({ 'tandem.attached_late': true });
  });

  it('closes a retried step attempt left open when the next attempt starts', () => {
    const { bus: b, tracer, spans } = bus();
    instrument(b, { tracer });
    const step = b.scope({ stepId: 's1' });
    const view: PlanStepView = { id: 's1', description: 'd', dependsOn: [], status: 'running' };
    step.emit('plan_step_started', { step: view, attempt: 1, mode: 'normal' });
    step.emit('plan_step_started', { step: view, attempt: 2, mode: 'enhanced' });
    step.emit('plan_step_completed', { output: 'x', completed: 1, total: 1 });
    b.emit('complete', done);
    expect(
      spans()
        .filter((s) => s.name === 'tandem.plan_step s1')
        .map((s) => s.status),
    ).toEqual([{ code: SpanStatusCode.ERROR, message: NOT_CLOSED }, { code: SpanStatusCode.OK }]);
  });
  it('nests the tool calls a tool makes (a skill) under that tool call', () => {
    const { bus: b, tracer, spans } = bus();
    instrument(b, { tracer });
    b.emit('tool_call', { id: 'c1', name: 'research', args: {} });
    const inner = b.scope({ parentId: 'c1' });
    inner.emit('stage', { name: 'search', status: 'running' });
    inner.emit('tool_call', { id: 'c2', name: 'search', args: {} });
    inner.emit('tool_result', { id: 'c2', name: 'search', output: '', isError: false, durationMs: 0 });
    inner.emit('stage', { name: 'search', status: 'completed' });
    b.emit('tool_result', { id: 'c1', name: 'research', output: '', isError: false, durationMs: 0 });
    b.emit('complete', done);
    expect(tree(spans())).toEqual([
      'invoke_agent tandem',
      '  execute_tool research',
      '    tandem.stage search',
      '      execute_tool search',
    ]);
  });

  it('keeps the runs of one source apart, by run id', () => {
    const clock = new FakeClock(T0);
    const a = new EventBus({ runId: 'run_a', clock });
    const c = new EventBus({ runId: 'run_c', clock });
    const listeners = new Set<(event: TandemEvent) => void>();
    const fanIn = {
      on: (_: '*', fn: (event: TandemEvent) => void) => listeners.add(fn),
      off: (_: '*', fn: (event: TandemEvent) => void) => listeners.delete(fn),
    };
    for (const source of [a, c])
      source.on('*', (event) => {
        for (const fn of listeners) fn(event);
      });
    const { tracer, spans } = memoryTracer();
    instrument(fanIn, { tracer });
    a.emit('run_started', { input: 'a' });
    c.emit('run_started', { input: 'c' });
    a.emit('tool_call', { id: 'call_1', name: 'add', args: {} });
    c.emit('tool_call', { id: 'call_1', name: 'mul', args: {} });
    c.emit('tool_result', { id: 'call_1', name: 'mul', output: '', isError: false, durationMs: 0 });
    a.emit('tool_result', { id: 'call_1', name: 'add', output: '', isError: false, durationMs: 0 });
    c.emit('complete', done);
    a.emit('complete', done);
    const runOf = (name: string) => parentOf(spans(), span(spans(), name))?.attributes['tandem.run.id'];
    expect([runOf('execute_tool add'), runOf('execute_tool mul')]).toEqual(['run_a', 'run_c']);
    expect(spans()).toHaveLength(4);
    expect(spans().every((s) => s.status.code === SpanStatusCode.OK)).toBe(true);
    expect(listeners.size).toBe(1);
  });
});

describe('instrument: span events', () => {
  it('puts retries, interrupts and hand-offs on the innermost open span they belong to', () => {
    const { bus: b, tracer, spans } = bus();
    instrument(b, { tracer });
    b.emit('run_started', { input: 'x' });
    b.emit('guardrail', { stage: 'input', rule: 'pii', action: 'warn', blocked: false, reason: 'email' });
    const step = b.scope({ stepId: 's1', agent: 'executor' });
    step.emit('plan_step_started', {
      step: { id: 's1', description: 'd', dependsOn: [], status: 'running' },
      attempt: 1,
      mode: 'normal',
    });
    step.emit('retry', {
      model: 'm',
      attempt: 1,
      delayMs: 500,
      error: { kind: 'rate_limit', message: '429' },
    });
    step.emit('tool_call', { id: 'c1', name: 'transfer', args: {} });
    step.emit('interrupt', {
      interrupt: {
        id: 'i1',
        kind: 'approval',
        title: 'Allow transfer?',
        toolName: 'transfer',
        toolCallId: 'c1',
        timeoutMs: 1000,
        defaultAction: 'deny',
      },
    });
    step.emit('interrupt_response', { interruptId: 'i1', action: 'approve', timedOut: false });
    step
      .scope({ parentId: 'c1' })
      .emit('handoff', { from: 'executor', to: 'billing', task: 'refund', accepted: true });
    step.emit('tool_result', { id: 'c1', name: 'transfer', output: 'ok', isError: false, durationMs: 0 });
    step.emit('compression', {
      tokensBefore: 900,
      tokensAfter: 300,
      messagesBefore: 20,
      messagesAfter: 6,
      method: 'summary',
    });
    step.emit('plan_step_completed', { output: 'x', completed: 1, total: 1 });
    b.emit('complete', done);

    const all = spans();
    const events = (name: string) => span(all, name).events.map((e) => e.name);
    expect(events('invoke_agent tandem')).toEqual(['guardrail']);
    expect(events('tandem.plan_step s1')).toEqual(['retry', 'compression']);
    expect(events('execute_tool transfer')).toEqual(['interrupt', 'interrupt_response', 'handoff']);
    expect(span(all, 'tandem.plan_step s1').events[0]!.attributes).toMatchObject({
      'tandem.retry.delay_ms': 500,
      'error.type': 'rate_limit',
    });
    expect(span(all, 'execute_tool transfer').events[2]!.attributes).toEqual({
      'gen_ai.agent.name': 'executor',
      'tandem.step.id': 's1',
      'tandem.handoff.from': 'executor',
      'tandem.handoff.to': 'billing',
      'tandem.handoff.accepted': true,
    });
  });
});

describe('instrument: options and lifecycle', () => {
  it('stops recording on detach and ends the open spans where the run was last seen', async () => {
    const runtime = testRuntime({ start: T0 });
    const model = new ScriptedModel([
      async () => {
        await runtime.clock.advance(25);
        return { text: 'done' };
      },
    ]);
    const { tracer, spans } = memoryTracer();
    const run = new Executor({ model, runtime }).run('Go');
    const detach = instrument(run, { tracer });
    run.once('stage', () => detach());
    await run.result;
    const all = spans();
    expect(tree(all)).toEqual(['invoke_agent tandem']);
    expect(all[0]!.attributes['tandem.incomplete']).toBe(true);
    expect(ms(all[0]!.endTime)).toBe(T0);
    expect(all[0]!.attributes['tandem.run.status']).toBeUndefined();
  });

  it('never breaks the run when the tracer throws, and reports the error once by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const throwing = {
      startSpan() {
        throw new Error('exporter down');
      },
    } as unknown as Tracer;
    const runtime = testRuntime();
    const model = new ScriptedModel([{ text: 'fine' }]);
    const run = new Executor({ model, runtime }).run('Go');
    instrument(run, { tracer: throwing });
    await expect(run.result).resolves.toMatchObject({ output: 'fine' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('tandem-agents/otel');

    const seen: unknown[] = [];
    const again = new Executor({ model: new ScriptedModel([{ text: 'fine' }]), runtime }).run('Go');
    instrument(again, {
      tracer: throwing,
      onError: (error) => {
        seen.push(error);
        throw new Error('handler throws too');
      },
    });
    await expect(again.result).resolves.toMatchObject({ output: 'fine' });
    expect(seen.length).toBeGreaterThan(1);
  });

  it('records content only when asked, clipped to maxContentChars', () => {
    const emitAll = (b: EventBus) => {
      b.emit('run_started', { input: 'the secret question' });
      b.emit('tool_call', { id: 'c1', name: 'add', args: { a: 1, b: 2 } });
      b.emit('tool_result', { id: 'c1', name: 'add', output: 'x'.repeat(50), isError: true, durationMs: 0 });
      b.emit('complete', { ...done, output: 'the secret answer' });
    };
    const off = bus();
    instrument(off.bus, { tracer: off.tracer });
    emitAll(off.bus);
    const attributes = off.spans().flatMap((s) => Object.keys(s.attributes));
    expect(attributes.filter((k) => /input$|output$|arguments|result/.test(k))).toEqual([]);

    const on = bus();
    instrument(on.bus, { tracer: on.tracer, captureContent: true, maxContentChars: 10 });
    emitAll(on.bus);
    expect(span(on.spans(), 'execute_tool add').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"a":1,"b"…',
      'gen_ai.tool.call.result': `${'x'.repeat(10)}…`,
    });
    expect(span(on.spans(), 'execute_tool add').status.message).toBe(`${'x'.repeat(10)}…`);
    expect(span(on.spans(), 'invoke_agent tandem').attributes).toMatchObject({
      'tandem.input': 'the secret…',
      'tandem.output': 'the secret…',
    });
  });

  it('makes the root a child of the given parent context and uses the root name and attributes', () => {
    const { bus: b, tracer, spans } = bus();
    const outer = tracer.startSpan('http.request');
    instrument(b, {
      tracer,
      rootName: 'agent.run',
      parentContext: trace.setSpan(context.active(), outer),
    });
    b.emit('run_started', { input: 'x' });
    b.emit('complete', done);
    outer.end();
    const root = span(spans(), 'agent.run');
    expect(parentOf(spans(), root)).toBe(span(spans(), 'http.request'));
  });
});
