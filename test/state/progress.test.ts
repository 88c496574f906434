import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/executor/index.js';
import { Orchestrator } from '../../src/agents/orchestrator/index.js';
import { ModelError } from '../../src/core/errors.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { Guardrails } from '../../src/safety/guardrails/guardrails.js';
import {
  createProgressStore,
  initialProgress,
  type RunProgress,
  reduceProgress,
} from '../../src/state/index.js';
import { FakeClock, type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const decide = { text: '{"needsPlan": true, "reasoning": "several steps"}' };
const planText = (ids: string[]) =>
  JSON.stringify({
    title: 'Two steps',
    summary: 'a then b',
    steps: ids.map((id, i) => ({ id, description: `do ${id}`, tools: ['add'], dependsOn: ids.slice(0, i) })),
  });

function orchestrator(scripts: Record<'planner' | 'executor' | 'verifier' | 'finalizer', ScriptEntry[]>) {
  const model = (name: keyof typeof scripts) => new ScriptedModel(scripts[name], { id: `scripted:${name}` });
  return new Orchestrator({
    models: {
      planner: model('planner'),
      executor: model('executor'),
      verifier: model('verifier'),
      finalizer: model('finalizer'),
    },
    tools: [add],
    planning: { classify: 'llm' },
    runtime: testRuntime({ start: 1_000 }),
  });
}

/** Runs to the end with a store attached, keeping every event too. */
async function record(run: { on: any; off: any; result: Promise<unknown> }) {
  const events: TandemEvent[] = [];
  run.on('*', (e: TandemEvent) => events.push(e));
  const store = createProgressStore(run);
  await run.result.catch(() => undefined);
  return { store, events, state: store.getState() };
}

/** A bus with a fake clock whose real events feed a store. */
function busStore(options: Parameters<typeof createProgressStore>[1] = {}) {
  const clock = new FakeClock(5_000);
  const bus = new EventBus({ runId: 'run_x', clock });
  const store = createProgressStore(bus, options);
  return { bus, clock, store };
}

describe('progress of a whole orchestration', () => {
  it('folds every event of a planned run into stages, plan, todo, tools, text, usage and output', async () => {
    const run = orchestrator({
      planner: [decide, { text: planText(['a', 'b']) }],
      executor: [
        {
          toolCalls: [{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }],
          usage: { inputTokens: 10, outputTokens: 2 },
        },
        { text: 'three', usage: { inputTokens: 12, outputTokens: 1 } },
        { text: 'b done', reasoning: 'thinking about b' },
      ],
      verifier: [{ text: 'PASS: fine' }],
      finalizer: [{ text: 'Final answer 3', usage: { inputTokens: 5, outputTokens: 3 } }],
    }).run('do a then b');
    const { state, events } = await record(run);

    expect(state).toMatchObject({
      runId: run.runId,
      status: 'completed',
      input: 'do a then b',
      outcome: 'success',
      output: 'Final answer 3',
      lastSeq: events.at(-1)!.seq,
      startedAt: 1_000,
      endedAt: 1_000,
      routing: { agent: 'planner', complexity: 'complex', method: 'llm', reason: 'several steps' },
      todo: { checked: 2, total: 2 },
      usage: { inputTokens: 27, outputTokens: 6 },
    });
    expect(state.currentStage).toBeUndefined();
    expect(state.stages.map((s) => `${s.name}:${s.status}`)).toEqual([
      'classifying:completed',
      'planning:completed',
      'executing:completed',
      'verifying:completed',
      'finalizing:completed',
    ]);
    expect(state.plan).toMatchObject({ title: 'Two steps', summary: 'a then b', completed: 2, total: 2 });
    expect(state.plan!.steps).toMatchObject([
      { id: 'a', status: 'completed', attempts: 1, mode: 'normal', output: 'three', dependsOn: [] },
      { id: 'b', status: 'completed', attempts: 1, mode: 'normal', output: 'b done', dependsOn: ['a'] },
    ]);
    expect(state.tools).toEqual([
      {
        id: 'c1',
        name: 'add',
        args: { a: 1, b: 2 },
        agent: 'executor',
        stepId: 'a',
        status: 'succeeded',
        startedAt: 1_000,
        endedAt: 1_000,
        durationMs: 0,
        isError: false,
        output: '3',
        outputChars: 1,
        truncated: false,
      },
    ]);
    expect(state.streams['executor@a']).toMatchObject({ text: 'three', reasoning: '' });
    expect(state.streams['executor@b']).toMatchObject({ text: 'b done', reasoning: 'thinking about b' });
    expect(state.streams.finalizer!.text).toBe('Final answer 3');
    expect(state.activeStream).toBe('finalizer');
    expect(state.interrupts).toEqual([]);
  });

  it('shows a failed attempt as retrying, then the enhanced attempt, and keeps the last error', async () => {
    const broken = { error: new ModelError('bad_request', 'model cannot do it') };
    const run = orchestrator({
      planner: [decide, { text: planText(['s1']) }, { text: 'Use add with a=1, b=2.' }],
      executor: [broken, { text: 'done on retry' }],
      verifier: [{ text: 'PASS' }],
      finalizer: [{ text: 'ok' }],
    }).run('add carefully');
    const store = createProgressStore(run);
    const seen: string[] = [];
    store.subscribe((state, event) => {
      if (event.type.startsWith('plan_step')) {
        const s = state.plan!.steps[0]!;
        seen.push(`${s.status}:${s.attempts}:${s.mode}`);
      }
    });
    await run.result;
    expect(seen).toEqual([
      'running:1:normal',
      'retrying:1:normal',
      'running:2:enhanced',
      'completed:2:enhanced',
    ]);
    expect(store.getState().plan!.steps[0]!.error).toEqual({
      kind: 'model',
      message: 'Model call failed (bad_request): model cannot do it',
    });
  });

  it('ends failed with the error when the run fails', async () => {
    const model = new ScriptedModel([{ error: new ModelError('auth', 'bad key') }]);
    const run = new Executor({ model, runtime: testRuntime() }).run('hi');
    const { state, events } = await record(run);
    expect(state.status).toBe('failed');
    expect(state.error).toEqual(events.find((e) => e.type === 'complete')!.error);
    expect(state.error!.message).toContain('bad key');
    expect(state.output).toBeUndefined();
  });

  it('lists a pending approval while it waits and drops it once answered', async () => {
    const runtime = testRuntime();
    const interrupts = new MemoryInterruptBus({ clock: runtime.clock });
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploy a service',
      risk: 'risky',
      parameters: z.object({ service: z.string() }),
      execute: ({ service }) => `deployed ${service}`,
    });
    const gate = new ApprovalGate({
      bus: interrupts,
      guardrails: new Guardrails({ clock: runtime.clock }),
      runtime,
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'call_1', name: 'deploy', args: { service: 'api' } }] },
      { text: 'Deployed.' },
    ]);
    const run = new Executor({ model, tools: [deploy], safety: { gate: gate.gate }, runtime }).run(
      'Deploy the api',
    );
    const store = createProgressStore(run);
    let pending: RunProgress['interrupts'] = [];
    store.subscribe((state, event) => {
      if (event.type !== 'interrupt') return;
      pending = state.interrupts;
      void interrupts.respond(event.interrupt.id, { action: 'approve' });
    });
    await run.result;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ kind: 'approval', toolName: 'deploy', toolCallId: 'call_1' });
    expect(store.getState().interrupts).toEqual([]);
    expect(store.getState().tools[0]).toMatchObject({ name: 'deploy', status: 'succeeded' });
  });

  it('replaying every event again (an SSE reconnect) changes nothing', async () => {
    const run = orchestrator({
      planner: [decide, { text: planText(['a']) }],
      executor: [{ text: 'one' }],
      verifier: [{ text: 'PASS' }],
      finalizer: [{ text: 'done' }],
    }).run('x');
    const { store, events, state } = await record(run);
    for (const event of events) expect(store.apply(event)).toBe(state);
    const partial = events.slice(0, 12).reduce((s, e) => reduceProgress(s, e), initialProgress());
    const resumed = events.reduce((s, e) => reduceProgress(s, e), partial);
    expect(resumed).toEqual(state);
  });
});

describe('reduceProgress rules', () => {
  it('shares every untouched branch with the previous state on a token', () => {
    const { bus, store } = busStore();
    bus.emit('plan_overview', { title: 't', summary: 's', steps: [] });
    bus.emit('tool_call', { id: 't1', name: 'add', args: {} });
    bus.scope({ agent: 'other' }).emit('token', { delta: 'x' });
    const before = store.getState();
    bus.scope({ agent: 'executor' }).emit('token', { delta: 'hi' });
    const after = store.getState();
    expect(after).not.toBe(before);
    expect(after.plan).toBe(before.plan);
    expect(after.tools).toBe(before.tools);
    expect(after.stages).toBe(before.stages);
    expect(after.streams.other).toBe(before.streams.other);
    expect(after.streams.executor!.text).toBe('hi');
  });

  it('keeps the tail of a stream within maxTextChars and counts what it dropped', () => {
    const { bus, store } = busStore({ maxTextChars: 100 });
    const emit = bus.scope({ agent: 'a' });
    let all = '';
    for (let i = 0; i < 50; i++) {
      const delta = `${String(i).padStart(2, '0')}-------|`;
      all += delta;
      emit.emit('token', { delta });
      expect(store.getState().streams.a!.text.length).toBeLessThanOrEqual(100);
    }
    const stream = store.getState().streams.a!;
    expect(all.endsWith(stream.text)).toBe(true);
    expect(stream.text.length).toBeGreaterThanOrEqual(75);
    expect(stream.droppedChars).toBe(all.length - stream.text.length);
    emit.emit('reasoning', { delta: 'r'.repeat(150) });
    expect(store.getState().streams.a!.reasoning).toBe('r'.repeat(75));
  });

  it('defaults the text cap to 100 000 characters', () => {
    const { bus, store } = busStore();
    bus.emit('token', { delta: 'x'.repeat(100_000) });
    expect(store.getState().streams.run!.text.length).toBe(100_000);
    bus.emit('token', { delta: 'y' });
    expect(store.getState().streams.run!.text.length).toBe(75_000);
  });

  it('tracks nested stages and reports the innermost running one', () => {
    const { bus, store } = busStore();
    bus.emit('stage', { name: 'executing', status: 'running' });
    bus
      .scope({ agent: 'researcher' })
      .emit('stage', { name: 'agent', status: 'running', detail: 'researcher' });
    expect(store.getState().currentStage).toBe('agent');
    bus.scope({ agent: 'researcher' }).emit('stage', { name: 'agent', status: 'failed', detail: 'boom' });
    expect(store.getState().currentStage).toBe('executing');
    expect(store.getState().stages[1]).toEqual({
      name: 'agent',
      agent: 'researcher',
      status: 'failed',
      detail: 'boom',
      startedAt: 5_000,
      endedAt: 5_000,
    });
    bus.emit('stage', { name: 'executing', status: 'completed' });
    bus.emit('stage', { name: 'executing', status: 'running' });
    expect(store.getState().stages.map((s) => s.status)).toEqual(['completed', 'failed', 'running']);
  });

  it('keeps pending interrupts by id until their response arrives', () => {
    const { bus, store } = busStore();
    const question = (id: string) => ({
      id,
      kind: 'decision' as const,
      title: `q ${id}`,
      options: ['a', 'b'],
      timeoutMs: 1000,
      defaultAction: 'skip',
    });
    bus.scope({ stepId: 's1' }).emit('interrupt', { interrupt: question('i1') });
    bus.emit('interrupt', { interrupt: question('i2') });
    expect(store.getState().interrupts).toMatchObject([
      { id: 'i1', stepId: 's1', at: 5_000 },
      { id: 'i2', title: 'q i2' },
    ]);
    bus.emit('interrupt_response', { interruptId: 'i1', action: 'select', value: 'a', timedOut: false });
    expect(store.getState().interrupts.map((i) => i.id)).toEqual(['i2']);
  });

  it('revises the plan keeping what known steps did, and marks skipped steps', () => {
    const { bus, store } = busStore();
    const view = (id: string, status: 'pending' | 'completed' = 'pending') => ({
      id,
      description: `do ${id}`,
      dependsOn: [],
      status,
    });
    bus.emit('plan_overview', { title: 'T', summary: 'S', steps: [view('a'), view('b')] });
    const a = bus.scope({ stepId: 'a' });
    a.emit('plan_step_started', { step: { ...view('a'), status: 'running' }, attempt: 1, mode: 'normal' });
    a.emit('plan_step_completed', { output: 'A'.repeat(3_000), completed: 1, total: 2 });
    bus.scope({ stepId: 'b' }).emit('plan_step_failed', {
      error: { kind: 'skipped', message: 'a failed' },
      willRetry: false,
      skipped: true,
    });
    expect(store.getState().plan!.steps[0]!.output).toHaveLength(2_000);
    expect(store.getState().plan!.steps[1]).toMatchObject({ status: 'skipped', endedAt: 5_000 });
    bus.emit('plan_revised', {
      reason: 'missing c',
      revision: 1,
      steps: [view('a', 'completed'), view('c')],
    });
    expect(store.getState().plan).toMatchObject({
      title: 'T',
      revision: 1,
      completed: 1,
      total: 2,
      steps: [
        { id: 'a', status: 'completed', attempts: 1, output: 'A'.repeat(2_000) },
        { id: 'c', status: 'pending', attempts: 0 },
      ],
    });
  });

  it('adds a step it never saw in an overview (a UI that joined late)', () => {
    const { bus, store } = busStore();
    bus.scope({ stepId: 'x' }).emit('plan_step_started', {
      step: { id: 'x', description: 'do x', dependsOn: [], status: 'running' },
      attempt: 2,
      mode: 'takeover',
    });
    expect(store.getState().plan).toMatchObject({
      title: '',
      total: 1,
      steps: [{ id: 'x', description: 'do x', status: 'running', attempts: 2, mode: 'takeover' }],
    });
  });

  it('records tool results (failed ones too, and ones whose call it missed) with a clipped output', () => {
    const { bus, store } = busStore({ maxOutputChars: 4 });
    bus.emit('tool_call', { id: 't1', name: 'read', args: { path: 'a' } });
    expect(store.getState().tools[0]).toMatchObject({ status: 'running' });
    bus.emit('tool_result', { id: 't1', name: 'read', output: 'no such file', isError: true, durationMs: 7 });
    bus.emit('tool_result', { id: 't9', name: 'ls', output: 'ok', isError: false, durationMs: 1 });
    expect(store.getState().tools).toMatchObject([
      {
        id: 't1',
        status: 'failed',
        isError: true,
        durationMs: 7,
        output: 'no s',
        outputChars: 12,
        args: { path: 'a' },
      },
      { id: 't9', name: 'ls', status: 'succeeded', output: 'ok' },
    ]);
  });

  it('bounds lists, dropping the oldest finished tools but never a running one', () => {
    const { bus, store } = busStore({ maxListItems: 3 });
    bus.emit('tool_call', { id: 'long', name: 'wait', args: {} });
    for (const id of ['t1', 't2', 't3']) {
      bus.emit('tool_call', { id, name: 'x', args: {} });
      bus.emit('tool_result', { id, name: 'x', output: '', isError: false, durationMs: 0 });
    }
    expect(store.getState().tools.map((t) => t.id)).toEqual(['long', 't2', 't3']);
    for (let attempt = 1; attempt <= 5; attempt++)
      bus.emit('retry', { model: 'm', attempt, delayMs: 10, error: { kind: 'server', message: '500' } });
    expect(store.getState().retries.map((r) => r.attempt)).toEqual([3, 4, 5]);
  });

  it('keeps handoffs, guardrail findings, retries, fallbacks, compressions and sources with their tags', () => {
    const { bus, store } = busStore();
    const tagged = bus.scope({ agent: 'executor', stepId: 's1' });
    tagged.emit('handoff', { from: 'executor', to: 'coder', task: 'write it', accepted: true });
    tagged.emit('guardrail', {
      stage: 'tool',
      rule: 'shell',
      action: 'block',
      blocked: true,
      reason: 'rm -rf',
    });
    tagged.emit('retry', {
      model: 'm',
      attempt: 1,
      delayMs: 2000,
      error: { kind: 'rate_limit', message: '429' },
    });
    tagged.emit('fallback', { from: 'm', to: 'n', error: { kind: 'overloaded', message: '529' } });
    tagged.emit('compression', {
      tokensBefore: 9000,
      tokensAfter: 3000,
      messagesBefore: 40,
      messagesAfter: 12,
      method: 'summary',
    });
    tagged.emit('source', { title: 'Doc', url: 'https://example.com' });
    const meta = { at: 5_000, agent: 'executor', stepId: 's1' };
    const state = store.getState();
    expect(state.handoffs).toEqual([
      { ...meta, from: 'executor', to: 'coder', task: 'write it', accepted: true },
    ]);
    expect(state.guardrails).toEqual([
      { ...meta, stage: 'tool', rule: 'shell', action: 'block', blocked: true, reason: 'rm -rf' },
    ]);
    expect(state.retries[0]).toEqual({
      ...meta,
      model: 'm',
      attempt: 1,
      delayMs: 2000,
      error: { kind: 'rate_limit', message: '429' },
    });
    expect(state.fallbacks[0]).toMatchObject({ ...meta, from: 'm', to: 'n' });
    expect(state.compressions[0]).toMatchObject({
      ...meta,
      tokensBefore: 9000,
      tokensAfter: 3000,
      method: 'summary',
    });
    expect(state.sources[0]).toEqual({ ...meta, title: 'Doc', url: 'https://example.com' });
  });

  it('sums usage from the usage of each call, not the per-agent totals', () => {
    const { bus, store } = busStore();
    const u = (n: number) => ({ inputTokens: n, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 });
    bus.emit('usage', { model: 'a', usage: u(10), total: u(10) });
    bus.emit('usage', { model: 'b', usage: u(5), total: u(5) });
    expect(store.getState().usage).toEqual({
      inputTokens: 15,
      outputTokens: 2,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('ignores events of another run, and starts over on another run_started', () => {
    const { bus, store } = busStore();
    bus.emit('run_started', { input: 'first' });
    const state = store.getState();
    const foreign = { type: 'token', runId: 'other', seq: 99, at: 0, delta: 'x' } as TandemEvent;
    expect(store.apply(foreign)).toBe(state);
    const fresh = store.apply({ type: 'run_started', runId: 'other', seq: 1, at: 7, input: 'second' });
    expect(fresh).toMatchObject({
      runId: 'other',
      input: 'second',
      lastSeq: 1,
      startedAt: 7,
      status: 'running',
    });
  });

  it('returns the same object for an event whose seq it already applied', () => {
    const event: TandemEvent = { type: 'token', runId: 'r', seq: 3, at: 1, delta: 'a' };
    const once = reduceProgress(initialProgress(), event);
    expect(reduceProgress(once, event)).toBe(once);
    expect(reduceProgress(once, { ...event, seq: 2 })).toBe(once);
    expect(reduceProgress(once, { ...event, seq: 4 }).streams.run!.text).toBe('aa');
  });
});

describe('createProgressStore', () => {
  it('notifies subscribers on change only, and stops after unsubscribe', () => {
    const store = createProgressStore();
    const calls: number[] = [];
    const off = store.subscribe((state) => calls.push(state.lastSeq));
    const event: TandemEvent = { type: 'run_started', runId: 'r', seq: 1, at: 0, input: 'x' };
    store.apply(event);
    store.apply(event);
    off();
    store.apply({ ...event, type: 'token', seq: 2, delta: 'y' } as TandemEvent);
    expect(calls).toEqual([1]);
  });

  it('runs every listener when one throws, then rethrows', () => {
    const store = createProgressStore();
    const seen: string[] = [];
    store.subscribe(() => {
      throw new Error('ui bug');
    });
    store.subscribe(() => seen.push('second'));
    expect(() => store.apply({ type: 'run_started', runId: 'r', seq: 1, at: 0, input: 'x' })).toThrow(
      'ui bug',
    );
    expect(seen).toEqual(['second']);
    expect(store.getState().lastSeq).toBe(1);
  });

  it('detaches from its source after the terminal event, or when asked', () => {
    const { bus, store } = busStore();
    const other = createProgressStore();
    const detach = other.attach(bus);
    bus.emit('run_started', { input: 'x' });
    detach();
    bus.emit('complete', { output: 'o', status: 'success', usage: initialProgress().usage });
    expect(other.getState().lastSeq).toBe(1);
    expect(store.getState()).toMatchObject({ status: 'completed', output: 'o', lastSeq: 2 });
    const listeners = (bus as any).emitter.listenerCount('*');
    expect(listeners).toBe(0);
  });

  it('starts from a given state and resets', () => {
    const initial = { ...initialProgress(), runId: 'r', lastSeq: 10 };
    const store = createProgressStore(undefined, { initial });
    expect(store.apply({ type: 'token', runId: 'r', seq: 10, at: 0, delta: 'x' })).toBe(initial);
    store.reset();
    expect(store.getState()).toEqual(initialProgress());
  });
});
