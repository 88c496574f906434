import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { expectInvariants } from '../support/invariants.js';
import { collect, decideComplex, planJson, setup, trace } from './helpers.js';

const usage = (n: number) => ({ inputTokens: n, outputTokens: 1 });

describe('Orchestrator: simple path', () => {
  it('runs a simple task as one Executor run on the executor model, without the planner', async () => {
    const { orchestrator, models } = setup(
      { executor: [{ text: '4' }] },
      { planning: { classify: 'heuristic' }, instructions: 'Be brief.' },
    );
    const { events, result } = await collect(orchestrator, 'What is 2+2?');
    expect(result).toMatchObject({ output: '4', status: 'success', complexity: 'simple', steps: [] });
    expect(models.planner.calls).toBe(0);
    expect(models.executor.calls).toBe(1);
    expect(models.executor.requests[0]!.system).toBe('Be brief.');
    expect(trace(events)).toEqual([
      'run_started',
      'stage:classifying:running',
      'stage:classifying:completed',
      'routing',
      'stage:executing:running',
      'stage:executing:completed',
      'complete',
    ]);
    expect(events.find((e) => e.type === 'routing')).toMatchObject({
      method: 'heuristic',
      complexity: 'simple',
    });
    expectInvariants(events);
  });

  it('asks the planner model to decide when the heuristic is unsure (auto)', async () => {
    const { orchestrator, models } = setup(
      {
        planner: [{ text: '```json\n{"needsPlan": false, "reasoning": "one thing"}\n```' }],
        executor: [{ text: 'done' }],
      },
      { planning: { classify: 'auto' } },
    );
    const { result, events } = await collect(
      orchestrator,
      'Rename the variable and next update its references',
    );
    expect(result?.complexity).toBe('simple');
    expect(models.planner.calls).toBe(1);
    expect(models.planner.requests[0]!.system).toContain('needsPlan');
    expect(events.find((e) => e.type === 'routing')).toMatchObject({ method: 'llm', reason: 'one thing' });
  });
});

describe('Orchestrator: plan and execute', () => {
  it('decides, plans, runs steps in dependency order with findings, verifies and finalizes', async () => {
    const { orchestrator, models } = setup({
      planner: [
        { ...decideComplex, usage: usage(10) },
        { text: planJson([{ id: 's2', dependsOn: ['s1'] }, { id: 's1' }]), usage: usage(20) },
      ],
      executor: [
        { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }], usage: usage(100) },
        { text: 'found 3', usage: usage(100) },
        { text: 'step two used 3', usage: usage(100) },
      ],
      verifier: [{ text: 'PASS: all done', usage: usage(5) }],
      finalizer: [{ text: 'The answer is 3.', usage: usage(7) }],
    });
    const { events, result } = await collect(orchestrator, 'Compute the sum then report it');
    expect(result).toMatchObject({
      output: 'The answer is 3.',
      status: 'success',
      complexity: 'complex',
      revisions: 0,
    });
    expect(result!.steps.map((s) => [s.id, s.status])).toEqual([
      ['s2', 'completed'],
      ['s1', 'completed'],
    ]);
    expect(trace(events)).toEqual([
      'run_started',
      'stage:classifying:running',
      'stage:classifying:completed',
      'routing',
      'stage:planning:running',
      'stage:planning:completed',
      'plan_overview',
      'stage:executing:running',
      'step_started:s1:normal',
      'tool_call:s1',
      'tool_result:s1',
      'step_completed:s1',
      'step_started:s2:normal',
      'step_completed:s2',
      'stage:executing:completed',
      'stage:verifying:running',
      'stage:verifying:completed',
      'stage:finalizing:running',
      'stage:finalizing:completed',
      'complete',
    ]);
    // Usage is summed over every model call of the run: planner, executor, verifier, finalizer.
    expect(result!.usage.inputTokens).toBe(10 + 20 + 300 + 5 + 7);
    expect(models.planner.calls).toBe(2);
    expect(models.executor.calls).toBe(3);
    for (const m of [models.planner, models.executor, models.verifier, models.finalizer]) m.assertConsumed();
    expectInvariants(events);
  });

  it('puts every prompt in the system position: decide, plan, step, verify and finalize', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
      executor: [{ text: 'ok' }],
      verifier: [{ text: 'PASS: fine' }],
      finalizer: [{ text: 'final' }],
    });
    await collect(orchestrator, 'Do the thing');
    const requests = [
      ...models.planner.requests,
      ...models.executor.requests,
      ...models.verifier.requests,
      ...models.finalizer.requests,
    ];
    expect(requests).toHaveLength(5);
    for (const request of requests) {
      expect(typeof request.system === 'string' && request.system.length > 20).toBe(true);
      for (const message of request.messages) {
        if (message.role === 'user' && typeof message.content === 'string') {
          expect(message.content).not.toContain(String(request.system).slice(0, 40));
        }
      }
    }
    expect(models.executor.requests[0]!.system).toContain('Current step (s1)');
    expect(models.executor.requests[0]!.messages[0]).toEqual({
      role: 'user',
      content: expect.stringMatching(/^Execute step: do s1/),
    });
  });

  it('hands a step the findings of the steps it depends on, and the checklist as [Active Task Context]', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
      executor: [{ text: 'the secret is 42' }, { text: 'used it' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    const { events } = await collect(orchestrator, 'Find the secret and use it');
    const second = String(models.executor.requests[1]!.system);
    expect(second).toContain('the secret is 42');
    expect(second).toContain('[Active Task Context]');
    expect(second).toContain('- [x] Step 1: do s1');
    expect(second).toContain('- [ ] Step 2: do s2 (in progress)');
    const todo = events.filter((e) => e.type === 'todo_update');
    expect(todo.at(-1)).toMatchObject({ checked: 2, total: 2 });
    expect(todo[0]).toMatchObject({ checked: 0, total: 2 });
  });

  it('runs ready independent steps concurrently up to stepConcurrency', async () => {
    let running = 0;
    let peak = 0;
    const slow = () => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 0));
      running--;
      return { text: 'done' };
    };
    const { orchestrator } = setup(
      {
        planner: [
          decideComplex,
          { text: planJson([{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['a', 'b'] }]) },
        ],
        executor: [slow(), slow(), slow()],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { limits: { stepConcurrency: 2 } },
    );
    const { result } = await collect(orchestrator, 'Do a and b then c');
    expect(result?.status).toBe('success');
    expect(peak).toBe(2);
  });
});

describe('Orchestrator: escalation ladder', () => {
  const broken = () => ({ error: new ModelError('bad_request', 'model cannot do it') });

  it('retries a failed step with enhanced instructions, then lets the planner model take it over', async () => {
    const { orchestrator, models } = setup({
      planner: [
        decideComplex,
        { text: planJson([{ id: 's1' }]) },
        { text: 'Use the add tool with a=1 and b=2.' },
        { text: 'Planner finished the step: 3' },
      ],
      executor: [broken(), broken()],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    const { events, result } = await collect(orchestrator, 'Add numbers carefully');
    expect(result?.status).toBe('success');
    expect(result!.steps[0]).toMatchObject({
      status: 'completed',
      output: 'Planner finished the step: 3',
      attempts: 3,
    });
    expect(trace(events).filter((t) => t.startsWith('step_'))).toEqual([
      'step_started:s1:normal',
      'step_failed:s1:retry',
      'step_started:s1:enhanced',
      'step_failed:s1:retry',
      'step_started:s1:takeover',
      'step_completed:s1',
    ]);
    const enhanced = String(models.executor.requests[1]!.system);
    expect(enhanced).toContain('Use the add tool with a=1 and b=2.');
    expect(enhanced).toContain('Previous attempt failed:');
    expect(enhanced).toContain('Plan summary:');
    const takeover = models.planner.requests[3]!;
    expect(String(takeover.system)).toContain('taking over');
    expect(models.executor.calls).toBe(2);
  });

  it('fails a step after the takeover fails, skips its dependants with a reason, and never reports success', async () => {
    const { orchestrator } = setup({
      planner: [
        decideComplex,
        {
          text: planJson([
            { id: 's1' },
            { id: 's2', dependsOn: ['s1'] },
            { id: 's3', dependsOn: ['s2'] },
            { id: 's4' },
          ]),
        },
        { text: 'try again' },
        broken(),
      ],
      executor: [broken(), broken(), { text: 's4 fine' }],
      verifier: [{ text: 'PARTIAL: s4 only' }],
      finalizer: [{ text: 'only part done' }],
    });
    const { events, result } = await collect(orchestrator, 'Do four things');
    expect(result?.status).toBe('partial');
    expect(result!.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'completed']);
    expect(result!.steps[1]!.error).toMatch(/step s1 it depends on failed/);
    expect(result!.steps[2]!.error).toMatch(/step s2 it depends on was skipped/);
    expect(trace(events)).toContain('step_failed:s1:final');
    expect(trace(events)).toContain('step_failed:s2:skipped');
    expectInvariants(events);
  });

  it('reports failed when no step completed', async () => {
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }, { text: 'x' }, broken()],
        executor: [broken(), broken()],
        verifier: [{ text: 'FAIL: nothing' }],
      },
      { limits: { maxReplans: 0 } },
    );
    const { result } = await collect(orchestrator, 'Do it');
    expect(result?.status).toBe('failed');
  });

  it('cancels a timed-out attempt through its signal, then escalates', async () => {
    let sawAbort = false;
    let started!: () => void;
    const toolStarted = new Promise<void>((r) => {
      started = r;
    });
    const { defineTool } = await import('../../src/tools/types.js');
    const { z } = await import('zod');
    const hang = defineTool({
      name: 'hang',
      description: 'waits until aborted',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_, reject) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(ctx.signal.reason);
          });
        }),
    });
    const { orchestrator, clock } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }, { text: 'be quicker' }],
        executor: [{ toolCalls: [{ name: 'hang', args: {} }] }, { text: 'quick answer' }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { tools: [hang], limits: { stepTimeoutMs: 1_000 } },
    );
    const pending = collect(orchestrator, 'Slow job');
    await toolStarted;
    await clock.advance(999);
    expect(sawAbort).toBe(false);
    await clock.advance(1);
    const { events, result } = await pending;
    expect(sawAbort).toBe(true);
    const failed = events.find((e) => e.type === 'plan_step_failed');
    expect(failed).toMatchObject({ error: { kind: 'timeout', message: 'Step timed out after 1 seconds' } });
    expect(result?.steps[0]).toMatchObject({ status: 'completed', output: 'quick answer' });
    expectInvariants(events);
  });
});

describe('Orchestrator: verify and re-plan', () => {
  it('re-plans after a FAIL verdict and runs only new or failed steps; completed steps keep their results', async () => {
    const { orchestrator, models } = setup({
      planner: [
        decideComplex,
        { text: planJson([{ id: 's1' }, { id: 's2' }]) },
        { text: planJson([{ id: 's3', dependsOn: ['s1'] }], 'Revised') },
      ],
      executor: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
      verifier: [{ text: 'FAIL: missing the third part' }, { text: 'PASS: now complete' }],
      finalizer: [{ text: 'all three' }],
    });
    const { events, result } = await collect(orchestrator, 'Do three parts');
    expect(result).toMatchObject({ status: 'success', revisions: 1, output: 'all three' });
    expect(result!.steps.map((s) => [s.id, s.output])).toEqual([
      ['s1', 'one'],
      ['s2', 'two'],
      ['s3', 'three'],
    ]);
    expect(models.executor.calls).toBe(3);
    const revised = events.find((e) => e.type === 'plan_revised');
    expect(revised).toMatchObject({ revision: 1, reason: 'missing the third part' });
    const reviseRequest = models.planner.requests[2]!;
    expect(String(reviseRequest.system)).toContain('missing the third part');
    expectInvariants(events);
  });

  it('bounds re-planning (default 1) and reports partial when the last verdict is still FAIL', async () => {
    const { orchestrator, models } = setup({
      planner: [
        decideComplex,
        { text: planJson([{ id: 's1' }]) },
        { text: planJson([{ id: 's2' }], 'Again') },
      ],
      executor: [{ text: 'one' }, { text: 'two' }],
      verifier: [{ text: 'FAIL: wrong' }, { text: 'FAIL: still wrong' }],
      finalizer: [{ text: 'best effort' }],
    });
    const { result } = await collect(orchestrator, 'Hard task');
    expect(result).toMatchObject({ status: 'partial', revisions: 1, verification: { verdict: 'fail' } });
    expect(models.verifier.calls).toBe(2);
  });

  it('finalizes with a reducer instead of a model when given one', async () => {
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }]) }],
        executor: [{ text: 'alpha' }, { text: 'beta' }],
        verifier: [{ text: 'PASS: ok' }],
      },
      { models: { finalizer: ({ steps }) => steps.map((s) => s.output).join('+') } },
    );
    const { result } = await collect(orchestrator, 'Two parts');
    expect(result?.output).toBe('alpha+beta');
  });

  it('falls back to the joined findings when the finalizer model fails, losing no work', async () => {
    const { orchestrator } = setup({
      planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }]) }],
      executor: [{ text: 'alpha' }, { text: 'beta' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ error: new ModelError('server', 'down', { retryable: false }) }],
    });
    const { result } = await collect(orchestrator, 'Two parts');
    expect(result?.output).toBe('alpha\n\nbeta');
  });
});

describe('Orchestrator: cancellation and errors', () => {
  it('ends failed with an aborted error, in one complete event, when the caller aborts mid-step', async () => {
    const controller = new AbortController();
    const { orchestrator } = setup({
      planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
      executor: [
        () => {
          controller.abort();
          return { hang: true };
        },
      ],
    });
    const { events, error } = await collect(orchestrator, 'Long job', controller.signal);
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(events.filter((e) => e.type === 'complete' || e.type === 'error')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'aborted' } });
    expectInvariants(events);
  });

  it('ends with a typed plan error when the planner cannot produce a valid plan', async () => {
    const { orchestrator, clock } = setup({
      planner: [
        decideComplex,
        { text: 'no json here' },
        { text: '{"title": "x"}' },
        { text: '{"steps": []}' },
      ],
    });
    const pending = collect(orchestrator, 'Plan this');
    await clock.runAll();
    const { error, events } = await pending;
    expect(error).toMatchObject({ kind: 'invalid_plan' });
    expect(trace(events)).toContain('stage:planning:failed');
    expectInvariants(events);
  });
});

describe('Orchestrator: checklist in a sandbox', () => {
  it('keeps the todo checklist in a file of the sandbox when one is given', async () => {
    const { LocalProcessSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await LocalProcessSandbox.create();
    try {
      let seenBySecondStep = '';
      const { orchestrator } = setup(
        {
          planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
          executor: [
            { text: 'first' },
            async () => {
              seenBySecondStep = await sandbox.readFile('.tandem/todo.md');
              return { text: 'second' };
            },
          ],
          verifier: [{ text: 'PASS: ok' }],
          finalizer: [{ text: 'final' }],
        },
        { sandbox },
      );
      const { result } = await collect(orchestrator, 'Two steps in a sandbox');
      expect(result?.status).toBe('success');
      expect(seenBySecondStep).toContain('- [x] Step 1: do s1');
      expect(seenBySecondStep).toContain('- [ ] Step 2: do s2 (in progress)');
      expect(await sandbox.readFile('.tandem/todo.md')).toContain('- [x] Step 2: do s2');
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Orchestrator: step runners', () => {
  it('sends each step as a plain-JSON job to a custom step runner, which may be another orchestrator', async () => {
    const worker = setup({ executor: [{ text: 'remote one' }, { text: 'remote two' }] });
    const jobs: unknown[] = [];
    const { orchestrator, models } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      {
        stepRunner: (job, context) => {
          jobs.push(JSON.parse(JSON.stringify(job)));
          return worker.orchestrator.runStep(JSON.parse(JSON.stringify(job)), context);
        },
      },
    );
    const { result, events } = await collect(orchestrator, 'Two remote steps');
    expect(result?.steps.map((s) => [s.id, s.status, s.output])).toEqual([
      ['s1', 'completed', 'remote one'],
      ['s2', 'completed', 'remote two'],
    ]);
    expect(models.executor.calls).toBe(0);
    expect(worker.models.executor.calls).toBe(2);
    expect(jobs[1]).toMatchObject({ step: { id: 's2' }, findings: [{ stepId: 's1', output: 'remote one' }] });
    expect(events.filter((e) => e.type === 'plan_step_started').map((e) => e.stepId)).toEqual(['s1', 's2']);
    expectInvariants(events);
  });
});
