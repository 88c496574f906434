import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator, type OrchestratorOptions } from '../../src/agents/index.js';
import { RunError } from '../../src/core/errors.js';
import type { TandemEvent } from '../../src/core/events.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { Guardrails } from '../../src/safety/guardrails/guardrails.js';
import { MemoryCheckpointStore } from '../../src/state/checkpoint-store.js';
import type { RunState } from '../../src/state/run-state.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { decideComplex, planJson } from './helpers.js';

/** A tool with a side effect the tests count. */
function ledger() {
  const entries: string[] = [];
  const tool = defineTool({
    name: 'record',
    description: 'Records an entry (a side effect)',
    parameters: z.object({ entry: z.string() }),
    risk: 'risky',
    execute: ({ entry }) => {
      entries.push(entry);
      return `recorded ${entry}`;
    },
  });
  return { entries, tool };
}

function orchestrator(
  scripts: { planner: ScriptEntry[]; executor: ScriptEntry[] },
  options: Omit<Partial<OrchestratorOptions>, 'models'> & { models?: Partial<OrchestratorOptions['models']> },
) {
  const runtime = testRuntime();
  const planner = new ScriptedModel(scripts.planner, { id: 'scripted:planner' });
  const executor = new ScriptedModel(scripts.executor, { id: 'scripted:executor' });
  const o = new Orchestrator({
    runtime,
    ...options,
    models: {
      planner,
      executor,
      verifier: false,
      finalizer: ({ steps }) => steps.map((s) => s.output).join(' | '),
      ...options?.models,
    },
    planning: { classify: 'llm', ...options?.planning },
  });
  return { o, planner, executor, clock: runtime.clock };
}

const call = (entry: string) => ({ toolCalls: [{ name: 'record', args: { entry } }] });

describe('run state and resume', () => {
  it('saves checkpoints at step boundaries and tool turns, and run.state() is versioned JSON', async () => {
    const { tool } = ledger();
    const store = new MemoryCheckpointStore<RunState>();
    const phases: string[] = [];
    const save = store.save.bind(store);
    store.save = async (id, state) => {
      phases.push(`${state.phase}:${state.steps.map((s) => s.status[0]).join('')}`);
      return save(id, state);
    };
    const { o } = orchestrator(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
        executor: [call('a'), { text: 'one' }, { text: 'two' }],
      },
      { tools: [tool], checkpoints: { store } },
    );
    const run = o.run('Two steps');
    const result = await run.result;
    expect(result.status).toBe('success');
    const state = run.state();
    expect(state).toMatchObject({
      version: 1,
      status: 'completed',
      phase: 'done',
      output: 'one | two',
      order: ['s1', 's2'],
    });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(phases[0]).toBe('planning:');
    expect(phases).toContain('dispatching:pp');
    expect(phases.filter((p) => p === 'dispatching:rp').length).toBeGreaterThanOrEqual(3);
    expect(phases.at(-1)).toBe('done:cc');
    expect(await store.load(run.runId)).toEqual(state);
  });

  it('resumes after a crash without re-running completed steps or re-executing recorded tools', async () => {
    const { entries, tool } = ledger();
    const store = new MemoryCheckpointStore<RunState>();
    const controller = new AbortController();
    const first = orchestrator(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
        executor: [
          call('s1-entry'),
          { text: 'step one done' },
          call('s2-entry'),
          () => {
            controller.abort(new Error('process crashed'));
            return { hang: true };
          },
        ],
      },
      { tools: [tool], checkpoints: { store } },
    );
    const crashed = first.o.run('Two steps', { signal: controller.signal });
    expect(await crashed.result).toMatchObject({ status: 'failed', error: { kind: 'aborted' } });
    const saved = (await store.load(crashed.runId))!;
    expect(saved.status).toBe('running');
    expect(saved.steps.map((s) => s.status)).toEqual(['completed', 'running']);
    expect(saved.conversations.s2?.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(entries).toEqual(['s1-entry', 's2-entry']);

    const second = orchestrator(
      { planner: [], executor: [{ text: 'step two done' }] },
      { tools: [tool], checkpoints: { store } },
    );
    const resumed = second.o.resume(JSON.parse(JSON.stringify(saved)));
    const events: TandemEvent[] = [];
    resumed.on('*', (e) => events.push(e));
    const result = await resumed.result;
    expect(result).toMatchObject({ status: 'success', output: 'step one done | step two done' });
    expect(entries).toEqual(['s1-entry', 's2-entry']);
    expect(second.planner.calls).toBe(0);
    expect(second.executor.requests[0]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ content: 'recorded s2-entry' }],
    });
    expect(events.filter((e) => e.type === 'plan_step_started').map((e) => e.stepId)).toEqual(['s2']);
    expect(resumed.runId).toBe(crashed.runId);
    expectInvariants(events);
  });

  it('does not retry steps that had already failed or been skipped when the run stopped', async () => {
    const { tool } = ledger();
    const store = new MemoryCheckpointStore<RunState>();
    const controller = new AbortController();
    const broken = {
      error: new (await import('../../src/core/errors.js')).ModelError('bad_request', 'nope'),
    };
    const first = orchestrator(
      {
        planner: [
          decideComplex,
          { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }, { id: 's3' }]) },
          { text: 'try harder' },
          broken,
        ],
        executor: [
          broken,
          broken,
          () => {
            controller.abort(new Error('crash'));
            return { hang: true };
          },
        ],
      },
      { tools: [tool], checkpoints: { store } },
    );
    const crashed = first.o.run('Three steps', { signal: controller.signal });
    await crashed.result.catch(() => undefined);
    const saved = (await store.load(crashed.runId))!;
    expect(saved.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'running']);
    const second = orchestrator(
      { planner: [], executor: [{ text: 's3 done' }] },
      { tools: [tool], checkpoints: { store } },
    );
    const result = await second.o.resume(saved).result;
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'completed']);
    expect(result.status).toBe('partial');
    expect(second.executor.calls).toBe(1);
  });

  it('pauses at an approval, saves the pending call, and a resume with the answer runs it once', async () => {
    const { entries, tool } = ledger();
    const store = new MemoryCheckpointStore<RunState>();
    const make = (executor: ScriptEntry[], planner: ScriptEntry[]) => {
      const approvals = new ApprovalGate({ bus: new MemoryInterruptBus(), guardrails: new Guardrails() });
      return orchestrator(
        { planner, executor },
        { tools: [tool], checkpoints: { store }, safety: { approvals, pauseOnInterrupt: true } },
      );
    };
    const first = make([call('pay 10')], [{ text: '{"needsPlan": false, "reasoning": "one call"}' }]);
    const paused = first.o.run('Record the payment');
    expect((await paused.result).error).toBeInstanceOf(RunError);
    await expect(paused.result).resolves.toMatchObject({
      status: 'interrupted',
      error: { kind: 'interrupted' },
    });
    const saved = (await store.load(paused.runId))!;
    expect(saved.status).toBe('paused');
    expect(saved.interrupts).toHaveLength(1);
    expect(saved.interrupts[0]).toMatchObject({ kind: 'approval', toolName: 'record' });
    expect(saved.conversations.main?.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(entries).toEqual([]);

    const second = make([{ text: 'payment recorded' }], []);
    const resumed = second.o.resume(saved, {
      responses: { [saved.interrupts[0]!.id]: { action: 'approve' } },
    });
    const result = await resumed.result;
    expect(result.output).toBe('payment recorded');
    expect(entries).toEqual(['pay 10']);
    expect((await store.load(paused.runId))?.status).toBe('completed');
  });

  it('a denied answer on resume gives the call a result and never runs it', async () => {
    const { entries, tool } = ledger();
    const store = new MemoryCheckpointStore<RunState>();
    const make = (executor: ScriptEntry[], planner: ScriptEntry[]) =>
      orchestrator(
        { planner, executor },
        {
          tools: [tool],
          checkpoints: { store },
          safety: { approvals: new ApprovalGate({ bus: new MemoryInterruptBus() }), pauseOnInterrupt: true },
        },
      );
    const paused = make([call('x')], [{ text: '{"needsPlan": false, "reasoning": "r"}' }]).o.run('Do x');
    await paused.result.catch(() => undefined);
    const saved = (await store.load(paused.runId))!;
    const second = make([{ text: 'understood, not done' }], []);
    await second.o.resume(saved, { responses: { [saved.interrupts[0]!.id]: { action: 'deny' } } }).result;
    expect(entries).toEqual([]);
    expect(second.executor.requests[0]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        {
          content: expect.stringMatching(
            /^User denied execution of record\. The tool was not executed\.\n\n/,
          ),
        },
      ],
    });
  });

  it('an approval on resume never bypasses the tool scanner', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const fetched: string[] = [];
    const fetchUrl = defineTool({
      name: 'fetch_url',
      description: 'Fetch a URL',
      parameters: z.object({ url: z.string() }),
      risk: 'risky',
      execute: ({ url }) => {
        fetched.push(url);
        return 'body';
      },
    });
    const approvals = () => new ApprovalGate({ bus: new MemoryInterruptBus(), guardrails: new Guardrails() });
    const first = orchestrator(
      {
        planner: [{ text: '{"needsPlan": false, "reasoning": "r"}' }],
        executor: [{ toolCalls: [{ name: 'fetch_url', args: { url: 'http://example.com/' } }] }],
      },
      {
        tools: [fetchUrl],
        checkpoints: { store },
        safety: { approvals: approvals(), pauseOnInterrupt: true },
      },
    );
    const paused = first.o.run('Fetch it');
    await paused.result.catch(() => undefined);
    const saved = (await store.load(paused.runId))!;
    // Tamper with the saved call: the resumed approval must not let a loopback URL through.
    const call0 = saved.conversations.main!.messages.at(-1)!;
    if (call0.role === 'assistant' && call0.content[0]?.type === 'tool_call')
      call0.content[0].arguments = '{"url":"http://127.0.0.1/admin"}';
    const second = orchestrator(
      { planner: [], executor: [{ text: 'blocked' }] },
      { tools: [fetchUrl], checkpoints: { store }, safety: { approvals: approvals() } },
    );
    await second.o.resume(saved, { responses: { [saved.interrupts[0]!.id]: { action: 'approve' } } }).result;
    expect(fetched).toEqual([]);
    expect(second.executor.requests[0]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ content: expect.stringMatching(/^Tool blocked: /) }],
    });
  });
});
