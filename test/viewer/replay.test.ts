/** What the viewer renders, without a browser: event logs, saved states, model-call timings. */
import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import type { RunState } from '../../src/state/run-state.js';
import { FakeClock } from '../../src/testing/index.js';
import { ViewerError } from '../../src/viewer/errors.js';
import { parseEventLog, viewerStateFromRunState, viewerStateOf } from '../../src/viewer/index.js';
import { busOf } from './support.js';

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: 0,
  reasoningTokens: 0,
});

describe('parseEventLog', () => {
  const events = [
    { type: 'run_started', runId: 'r', seq: 1, at: 1, input: 'x' },
    { type: 'complete', runId: 'r', seq: 2, at: 2, output: 'y', status: 'success', usage: usage(1, 1) },
  ];

  it('reads JSON lines, skipping blank lines, sorted by seq without repeats', () => {
    const text = `${JSON.stringify(events[1])}\n\n${JSON.stringify(events[0])}\r\n${JSON.stringify(events[0])}\n`;
    expect(parseEventLog(text)).toEqual(events);
  });

  it('reads a JSON array', () => {
    expect(parseEventLog(JSON.stringify(events))).toEqual(events);
  });

  it('names the first line that is not JSON or not an event', () => {
    expect(() => parseEventLog(`${JSON.stringify(events[0])}\n{oops`)).toThrow('line 2 is not JSON');
    expect(() => parseEventLog('{"type":"token"}')).toThrow(/line 1 is not an event/);
    expect(() => parseEventLog('[1]')).toThrow(ViewerError);
  });
});

describe('viewerStateFromRunState', () => {
  const state = {
    version: 1,
    runId: 'run_9',
    task: 'Sum three cities',
    status: 'completed',
    phase: 'done',
    plan: { title: 'Plan', summary: 'Look up, then add', steps: [] },
    steps: [
      {
        step: { id: 'a', description: 'Look up', dependsOn: [] },
        status: 'completed',
        output: 'found',
        attempts: 2,
      },
      {
        step: { id: 'old', description: 'Dropped', dependsOn: [] },
        status: 'failed',
        output: '',
        attempts: 1,
        error: 'x',
      },
      {
        step: { id: 'b', description: 'Add', dependsOn: ['a'] },
        status: 'completed',
        output: '970,000',
        attempts: 1,
      },
    ],
    order: ['a', 'b'],
    revisions: 1,
    conversations: {},
    handoffs: [{ from: 'chat', to: 'research', task: 't', accepted: true }],
    interrupts: [],
    usage: { ...usage(120, 30), costUsd: 0.01 },
    output: 'They total 970,000.',
    updatedAt: 500,
  } as unknown as RunState;

  it('shows the current plan’s steps in order, with attempts and the ladder’s mode, the answer and the usage', () => {
    const { progress } = viewerStateFromRunState(state);
    expect(progress.plan?.steps.map((s) => [s.id, s.status, s.attempts, s.mode])).toEqual([
      ['a', 'completed', 2, 'enhanced'],
      ['b', 'completed', 1, 'normal'],
    ]);
    expect(progress.plan).toMatchObject({ title: 'Plan', revision: 1, completed: 2, total: 2 });
    expect(progress).toMatchObject({
      status: 'completed',
      outcome: 'success',
      output: 'They total 970,000.',
      input: 'Sum three cities',
    });
    expect(progress.usage.costUsd).toBe(0.01);
    expect(progress.handoffs).toEqual([{ from: 'chat', to: 'research', task: 't', accepted: true, at: 500 }]);
  });

  it('refuses a value that is not a run state', () => {
    expect(() => viewerStateFromRunState({ runId: 'x' } as unknown as RunState)).toThrow(
      expect.objectContaining({ kind: 'invalid_state' }),
    );
  });
});

describe('viewer state from events', () => {
  it('times each model call from the agent’s previous activity to its usage event', async () => {
    const clock = new FakeClock(1_000);
    const bus = busOf('run_1', clock);
    const events: TandemEvent[] = [];
    bus.on('*', (e) => events.push(e));
    bus.emit('run_started', { input: 'task' });
    const step = bus.scope({ agent: 'executor', stepId: 's1' });
    await clock.advance(100);
    step.emit('plan_step_started', {
      step: { id: 's1', description: 'd', dependsOn: [], status: 'running' },
      attempt: 1,
      mode: 'normal',
    });
    await clock.advance(400);
    step.emit('usage', { model: 'm', usage: usage(10, 5), total: usage(0, 0) });
    await clock.advance(50);
    step.emit('tool_call', { id: 'c1', name: 'add', args: {} });
    await clock.advance(250);
    step.emit('tool_result', { id: 'c1', name: 'add', output: '3', isError: false, durationMs: 250 });
    await clock.advance(300);
    step.emit('usage', { model: 'm', usage: usage(20, 5), total: usage(0, 0) });
    const state = viewerStateOf(events);
    expect(state.modelCalls.map((c) => [c.startedAt - 1_000, c.endedAt - 1_000, c.tokens, c.stepId])).toEqual(
      [
        [100, 500, 15, 's1'],
        [800, 1_100, 25, 's1'],
      ],
    );
    expect(state.progress.tools[0]).toMatchObject({ startedAt: 1_550, endedAt: 1_800 });
  });

  it('starts another agent’s call for a step at the step’s last activity, and a stage’s call at the stage', async () => {
    const clock = new FakeClock(0);
    const bus = busOf('run_1', clock);
    const events: TandemEvent[] = [];
    bus.on('*', (e) => events.push(e));
    bus.emit('run_started', { input: 'task' });
    const step = bus.scope({ agent: 'executor', stepId: 's1' });
    step.emit('plan_step_started', {
      step: { id: 's1', description: 'd', dependsOn: [], status: 'running' },
      attempt: 1,
      mode: 'normal',
    });
    await clock.advance(300);
    step.emit('plan_step_failed', { error: { kind: 'tool', message: 'no' }, willRetry: true });
    await clock.advance(200);
    bus
      .scope({ agent: 'planner', stepId: 's1' })
      .emit('usage', { model: 'p', usage: usage(1, 1), total: usage(0, 0) });
    await clock.advance(100);
    bus.emit('stage', { name: 'verifying', status: 'running' });
    await clock.advance(400);
    bus.scope({ agent: 'verifier' }).emit('usage', { model: 'v', usage: usage(1, 1), total: usage(0, 0) });
    expect(viewerStateOf(events).modelCalls.map((c) => [c.model, c.startedAt, c.endedAt])).toEqual([
      ['p', 300, 500],
      ['v', 600, 1_000],
    ]);
  });
});
