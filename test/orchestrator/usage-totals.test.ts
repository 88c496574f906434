import { describe, expect, it } from 'vitest';
import {
  AgentRegistry,
  addUsage,
  emptyUsage,
  HandoffManager,
  MemoryCheckpointStore,
  ModelError,
  Router,
  type RunState,
  type TandemEvent,
  type Usage,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { expectInvariants } from '../support/invariants.js';
import { decideComplex, planJson, setup } from './helpers.js';

const usage = (n: number) => ({ inputTokens: n, outputTokens: 1 });

/** Each `usage` event's `total` next to the sum of every call's `usage` up to it. */
function totals(events: readonly TandemEvent[], start: Usage = emptyUsage()) {
  const sum = { ...start };
  return events.flatMap((e) =>
    e.type === 'usage' ? [{ total: e.total, expected: { ...addUsage(sum, e.usage) } }] : [],
  );
}

describe('Orchestrator: usage totals and agent tags', () => {
  it('gives every usage event the running total of the whole run, whichever component made the call', async () => {
    const { orchestrator } = setup({
      planner: [
        { ...decideComplex, usage: usage(10) },
        { text: planJson([{ id: 's1' }, { id: 's2' }]), usage: usage(20) },
      ],
      executor: [
        { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }], usage: usage(100) },
        { text: 'found 3', usage: usage(200) },
        { text: 'used 3', usage: usage(300) },
      ],
      verifier: [{ text: 'PASS: all done', usage: usage(5) }],
      finalizer: [{ text: 'The answer is 3.', usage: usage(7) }],
    });
    const run = orchestrator.run('Compute the sum then report it');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    const seen = totals(events);
    expect(seen.map((t) => t.total.inputTokens)).toEqual([10, 30, 130, 330, 630, 635, 642]);
    for (const { total, expected } of seen) expect(total).toEqual(expected);
    expect(seen.at(-1)!.total).toEqual(result.usage);
    expect(events.at(-1)).toMatchObject({ type: 'complete', usage: result.usage });
    expectInvariants(events);
  });

  it('tags the planner model’s work on a step as the planner: the enhance call and the takeover attempt', async () => {
    const broken = () => ({ error: new ModelError('bad_request', 'model cannot do it') });
    const { orchestrator, clock } = setup({
      planner: [
        decideComplex,
        { text: planJson([{ id: 's1' }]) },
        { text: 'Use the add tool with a=1 and b=2.', usage: usage(3) },
        { text: 'Planner finished the step: 3', usage: usage(4) },
      ],
      executor: [broken(), broken()],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    const run = orchestrator.run('Do the hard step');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await clock.run(run.result);
    const started = events.filter((e) => e.type === 'plan_step_started');
    expect(started.map((e) => [e.mode, e.agent, e.stepId])).toEqual([
      ['normal', 'executor', 's1'],
      ['enhanced', 'executor', 's1'],
      ['takeover', 'planner', 's1'],
    ]);
    const failed = events.filter((e) => e.type === 'plan_step_failed');
    expect(failed.map((e) => e.agent)).toEqual(['executor', 'executor']);
    const stepUsage = events.filter(
      (e): e is TandemEvent<'usage'> => e.type === 'usage' && e.stepId === 's1',
    );
    expect(stepUsage.map((e) => [e.agent, e.usage.inputTokens])).toEqual([
      ['planner', 3],
      ['planner', 4],
    ]);
    for (const e of events) {
      if (e.type === 'usage' && e.model === 'scripted:planner') expect(e.agent).toBe('planner');
    }
  });

  it('continues the saved total when a run is resumed', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const controller = new AbortController();
    const first = setup(
      {
        planner: [
          { ...decideComplex, usage: usage(10) },
          { text: planJson([{ id: 's1' }, { id: 's2' }]), usage: usage(20) },
        ],
        executor: [
          { text: 'one', usage: usage(100) },
          () => {
            controller.abort(new Error('process crashed'));
            return { hang: true };
          },
        ],
      },
      {
        checkpoints: { store },
        models: { verifier: false, finalizer: ({ steps }) => steps.map((s) => s.output).join(' | ') },
      },
    );
    const crashed = first.orchestrator.run('Two steps', { signal: controller.signal });
    expect(await crashed.result).toMatchObject({ status: 'failed', error: { kind: 'aborted' } });
    const saved = (await store.load(crashed.runId))!;
    expect(saved.usage.inputTokens).toBe(130);

    const second = setup(
      { executor: [{ text: 'two', usage: usage(50) }] },
      {
        checkpoints: { store },
        models: { verifier: false, finalizer: ({ steps }) => steps.map((s) => s.output).join(' | ') },
      },
    );
    const resumed = second.orchestrator.resume(saved);
    const events: TandemEvent[] = [];
    resumed.on('*', (e) => events.push(e));
    const result = await resumed.result;
    expect(totals(events, saved.usage).map((t) => t.total.inputTokens)).toEqual([180]);
    expect(result.usage.inputTokens).toBe(180);
  });

  it('counts the routing call in the run, tagged as the router', async () => {
    const runtime = testRuntime();
    const agents = new AgentRegistry([
      { name: 'chat', description: 'general chat', instructions: 'Chat.', model: new ScriptedModel([]) },
      {
        name: 'research',
        description: 'finds sources',
        instructions: 'Research.',
        model: new ScriptedModel([{ text: 'found papers', usage: usage(40) }]),
      },
    ]);
    const routerModel = new ScriptedModel(
      [{ text: '{"agent": "research", "confidence": 0.9, "reason": "sources"}', usage: usage(2) }],
      { id: 'scripted:router' },
    );
    const { orchestrator } = setup(
      {},
      {
        handoffs: new HandoffManager({ agents, runtime }),
        router: new Router({
          model: routerModel,
          agents: agents.descriptors(),
          defaultAgent: 'chat',
          runtime,
        }),
      },
    );
    const run = orchestrator.run('find papers on retrieval');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    const usageEvents = events.filter((e) => e.type === 'usage');
    expect(usageEvents.map((e) => [e.agent, e.usage.inputTokens, e.total.inputTokens])).toEqual([
      ['router', 2, 2],
      ['research', 40, 42],
    ]);
    expect(result.usage.inputTokens).toBe(42);
  });
});
