import { Queue } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { StepJob, StepJobResult } from '../../src/agents/orchestrator/index.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import { QueueError, queueStepRunner, stepJobId } from '../../src/queue/index.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { defineTool } from '../../src/tools/types.js';
import { collect, decideComplex, planJson, setup } from '../orchestrator/helpers.js';
import { expectInvariants } from '../support/invariants.js';
import { useQueueFixture } from './helpers.js';

const fixture = useQueueFixture();

/** The main orchestrator: planner, verifier and finalizer here; steps go to the queue. */
function mainOrchestrator(steps: Parameters<typeof planJson>[0], queueName: string, finalizer = 'final') {
  return setup(
    {
      planner: [decideComplex, { text: planJson(steps) }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: finalizer }],
    },
    { stepRunner: fixture.runner({ queueName }) },
  );
}

function stepEvents(events: TandemEvent[], stepId: string): string[] {
  return events
    .filter((e) => e.stepId === stepId && e.type !== 'usage' && e.type !== 'stage')
    .map((e) => e.type)
    .filter((type, i, all) => type !== 'token' || all[i - 1] !== 'token');
}

describe('queue: steps on a BullMQ worker', () => {
  it('runs every plan step on the worker, streams its events to the run in order, and passes findings on', async () => {
    const queueName = fixture.queueName();
    const remote = setup({
      executor: [
        { toolCalls: [{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }] },
        { text: 'remote one' },
        { text: 'remote two' },
      ],
    });
    const jobs: StepJob[] = [];
    await fixture.worker({
      queueName,
      orchestrator: {
        runStep: (job, context) => {
          jobs.push(job);
          return remote.orchestrator.runStep(job, context);
        },
      },
    });
    const { orchestrator, models } = mainOrchestrator(
      [{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }],
      queueName,
    );

    const { result, events } = await collect(orchestrator, 'Two remote steps');

    expect(result?.steps.map((s) => [s.id, s.status, s.output])).toEqual([
      ['s1', 'completed', 'remote one'],
      ['s2', 'completed', 'remote two'],
    ]);
    expect(result?.output).toBe('final');
    expect(models.executor.calls).toBe(0);
    expect(remote.models.executor.calls).toBe(3);
    expect(jobs[1]).toMatchObject({ step: { id: 's2' }, findings: [{ stepId: 's1', output: 'remote one' }] });
    expect(stepEvents(events, 's1')).toEqual([
      'plan_step_started',
      'tool_call',
      'tool_result',
      'token',
      'plan_step_completed',
    ]);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      stepId: 's1',
      output: '3',
      isError: false,
    });
    const tokens = events.flatMap((e) => (e.type === 'token' && e.stepId === 's1' ? [e.delta] : []));
    expect(tokens.join('')).toBe('remote one');
    expect(events.filter((e) => e.type === 'plan_step_started').map((e) => e.stepId)).toEqual(['s1', 's2']);
    expectInvariants(events);
  });

  it('cancels the remote step when the run is aborted: the worker tool sees its signal abort', async () => {
    const queueName = fixture.queueName();
    let toolSawAbort = false;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            toolSawAbort = true;
            reject(signal.reason);
          });
        }),
    });
    const remote = setup(
      { executor: [{ toolCalls: [{ id: 'w1', name: 'wait', args: {} }] }] },
      { tools: [wait] },
    );
    await fixture.worker({ queueName, orchestrator: remote.orchestrator });
    const { orchestrator } = setup(
      { planner: [decideComplex, { text: planJson([{ id: 's1' }]) }] },
      { stepRunner: fixture.runner({ queueName }) },
    );
    const controller = new AbortController();
    const run = orchestrator.run('Wait forever', { signal: controller.signal });
    const events: TandemEvent[] = [];
    run.on('*', (e) => {
      events.push(e);
      if (e.type === 'tool_call') controller.abort();
    });

    expect(await run.result).toMatchObject({ status: 'failed', error: { kind: 'aborted' } });

    expect(toolSawAbort).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed' });
    expect(events.some((e) => e.type === 'tool_call' && e.name === 'wait')).toBe(true);
    expectInvariants(events);
  });

  it('reports a worker that throws as a failed step, and the run goes on to finalize', async () => {
    const queueName = fixture.queueName();
    const remote = setup({ executor: [{ text: 'two done' }] });
    await fixture.worker({
      queueName,
      orchestrator: {
        runStep: (job, context) => {
          if (job.step.id === 's1') throw new Error('worker exploded');
          return remote.orchestrator.runStep(job, context);
        },
      },
    });
    const { orchestrator, models } = mainOrchestrator(
      [{ id: 's1' }, { id: 's2' }],
      queueName,
      'partial answer',
    );

    const { result, events } = await collect(orchestrator, 'One step breaks');

    const s1 = result?.steps.find((s) => s.id === 's1');
    expect(s1?.status).toBe('failed');
    expect(s1?.error).toContain('worker exploded');
    expect(result?.steps.find((s) => s.id === 's2')?.status).toBe('completed');
    expect(models.finalizer.calls).toBe(1);
    expect(result?.output).toBe('partial answer');
    expect(events.at(-1)?.type).toBe('complete');
    expectInvariants(events);
  });
});

describe('queue: the step runner', () => {
  const job = (runId: string): StepJob => ({
    runId,
    plan: { title: 'p', summary: 's', steps: [] } as unknown as StepJob['plan'],
    step: { id: 's:1', description: 'do it' } as StepJob['step'],
    findings: [],
    attempts: 0,
  });
  const context = (runId: string) => {
    const bus = new EventBus({ runId, clock: new FakeClock() });
    return { signal: new AbortController().signal, emit: bus };
  };

  /** A worker on a fresh queue whose steps complete with `output(job)`; `runs()` counts them. */
  async function countingWorker(output: (j: StepJob) => string) {
    const queueName = fixture.queueName();
    let runs = 0;
    await fixture.worker({
      queueName,
      orchestrator: {
        runStep: async (j): Promise<StepJobResult> => {
          runs++;
          return { status: 'completed', output: output(j), attempts: 1 };
        },
      },
    });
    return { queueName, runs: () => runs };
  }

  it('enqueues a step dispatched twice only once and gives both dispatches its result', async () => {
    const { queueName, runs } = await countingWorker((j) => `ran ${j.step.id}`);
    const runner = fixture.runner({ queueName });

    const results = await Promise.all([runner(job('r1'), context('r1')), runner(job('r1'), context('r1'))]);

    expect(results).toEqual([
      { status: 'completed', output: 'ran s:1', attempts: 1 },
      { status: 'completed', output: 'ran s:1', attempts: 1 },
    ]);
    expect(runs()).toBe(1);
    expect(stepJobId(job('r1'))).toBe('r1/s%3A1/0');
  });

  it('gives a step dispatched again after its job finished that result without running it again, and looks up only that job', async () => {
    const { queueName, runs } = await countingWorker((j) => `ran ${j.step.id} for ${j.runId}`);
    const queue = new Queue(queueName, { connection: { port: Number(new URL(fixture.url()).port) } });
    fixture.onClose(() => queue.close());
    const lookUps = vi.spyOn(queue, 'getJobState');
    const runner = fixture.runner({ queue });

    const first = await runner(job('r3'), context('r3'));
    const other = await runner(job('r4'), context('r4'));
    expect(lookUps).not.toHaveBeenCalled();
    const again = await runner(job('r3'), context('r3'));

    expect(first).toEqual({ status: 'completed', output: 'ran s:1 for r3', attempts: 1 });
    expect(other.output).toBe('ran s:1 for r4');
    expect(again).toEqual(first);
    expect(runs()).toBe(2);
    expect(lookUps.mock.calls).toEqual([[stepJobId(job('r3'))]]);
  });

  it('dispatches through a queue with a key prefix of its own', async () => {
    const queueName = fixture.queueName();
    const connection = { port: Number(new URL(fixture.url()).port) };
    const queue = new Queue(queueName, { connection, prefix: 'custom' });
    fixture.onClose(() => queue.close());
    await fixture.worker({
      queueName,
      workerOptions: { prefix: 'custom' },
      orchestrator: {
        runStep: async (): Promise<StepJobResult> => ({ status: 'completed', output: 'done', attempts: 1 }),
      },
    });
    const runner = fixture.runner({ queue });

    const result = await runner(job('r5'), context('r5'));

    expect(result).toEqual({ status: 'completed', output: 'done', attempts: 1 });
    expect(await queue.getJobState(stepJobId(job('r5')))).toBe('completed');
  });

  it('fails a step no worker took within jobTimeoutMs and removes its job', async () => {
    const queueName = fixture.queueName();
    const clock = new FakeClock();
    const queue = new Queue(queueName, {
      connection: { host: '127.0.0.1', port: Number(new URL(fixture.url()).port) },
    });
    fixture.onClose(() => queue.close());
    const runner = fixture.runner({ queue, jobTimeoutMs: 5_000, clock });
    queue.once('waiting', () => void clock.advance(5_000));

    const result = await runner(job('r2'), context('r2'));

    expect(result).toMatchObject({ status: 'failed', attempts: 0 });
    expect(result.error).toContain('did not finish within 5000 ms');
    expect(await queue.getJobCounts('wait')).toEqual({ wait: 0 });
  });

  it.each([12, 40, 100])(
    'dispatches %i steps at once without a MaxListenersExceededWarning',
    async (width) => {
      const queueName = fixture.queueName();
      const steps = Array.from({ length: width }, (_, i) => ({ id: `p${i}` }));
      const remote = setup({ executor: steps.map((s) => ({ text: `done ${s.id}` })) });
      await fixture.worker({ queueName, orchestrator: remote.orchestrator, concurrency: width });
      const { orchestrator } = setup(
        {
          planner: [decideComplex, { text: planJson(steps) }],
          verifier: [{ text: 'PASS: ok' }],
          finalizer: [{ text: 'final' }],
        },
        { stepRunner: fixture.runner({ queueName }), limits: { stepConcurrency: width } },
      );
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      try {
        const { result } = await collect(orchestrator, `${width} steps at once`);
        await new Promise((resolve) => setImmediate(resolve));
        expect(result?.steps.map((s) => s.status)).toEqual(steps.map(() => 'completed'));
        expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    },
  );

  it('refuses to start without a connection or a queue', () => {
    expect(() => queueStepRunner({})).toThrow(QueueError);
    expect(() => queueStepRunner({})).toThrow(expect.objectContaining({ kind: 'config' }));
  });
});
