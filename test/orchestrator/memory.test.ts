/**
 * The Orchestrator's `memory`: one turn per run, read by every executor of
 * the run (simple path and plan steps), with the working memory tool, and
 * the task and answer remembered for the user's later threads.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryMemoryStore, Orchestrator, type SystemPart, type TandemEvent } from '../../src/index.js';
import { HashEmbedder, type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { planJson } from './helpers.js';

const simple: ScriptEntry = { text: '{"needsPlan": false, "reasoning": "one answer"}' };
const complex: ScriptEntry = { text: '{"needsPlan": true, "reasoning": "several steps"}' };
const systemOf = (model: ScriptedModel, call: number) =>
  (model.requests[call]!.system as SystemPart[]).map((p) => p.text).join('\n\n');

function setup(planner: ScriptEntry[], executor: ScriptEntry[]) {
  const store = new InMemoryMemoryStore();
  const plannerModel = new ScriptedModel(planner, { id: 'scripted:planner' });
  const executorModel = new ScriptedModel(executor, { id: 'scripted:executor' });
  const orchestrator = new Orchestrator({
    models: {
      planner: plannerModel,
      executor: executorModel,
      verifier: false,
      finalizer: ({ steps }) => steps.map((step) => step.output).join(' | '),
    },
    planning: { classify: 'llm' },
    memory: { store, recall: { embedder: new HashEmbedder(), minScore: 0.2 } },
    runtime: testRuntime({ start: Date.UTC(2026, 2, 1) }),
  });
  return { store, orchestrator, executorModel };
}

describe('Orchestrator memory', () => {
  it('gives a simple run the working memory and its tool, and recalls it in another thread', async () => {
    const { store, orchestrator, executorModel } = setup(
      [simple, simple],
      [
        { toolCalls: [{ name: 'update_working_memory', args: { memory: 'Likes sailing.' } }] },
        { text: 'Noted that you like sailing.' },
        { text: 'How about a sailing trip?' },
      ],
    );
    await orchestrator.run('I like sailing', { resourceId: 'u1', threadId: 'hobbies' }).result;
    expect((await store.get('u1'))?.value).toBe('Likes sailing.');
    const run = orchestrator.run('Plan a weekend about sailing', { resourceId: 'u1', threadId: 'weekend' });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(result.status).toBe('success');
    const system = systemOf(executorModel, 2);
    expect(system).toContain('<working_memory>\nLikes sailing.\n</working_memory>');
    expect(system).toContain('[thread hobbies, 2026-03-01T00:00:00.000Z] user: I like sailing');
    expect(system).toContain('assistant: Noted that you like sailing.');
    const ops = events.filter((e) => e.type === 'memory').map((e) => (e as TandemEvent<'memory'>).op);
    expect(ops).toEqual(['recall', 'remember']);
  });

  it("puts the run's memory in every plan step's prompt, read once for the run", async () => {
    const { store, orchestrator, executorModel } = setup(
      [complex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
      [{ text: 'one' }, { text: 'two' }],
    );
    await store.set('u1', 'Prefers short answers.');
    let reads = 0;
    const get = store.get.bind(store);
    store.get = (id) => {
      reads += 1;
      return get(id);
    };
    const result = await orchestrator.run('Do two things', { resourceId: 'u1' }).result;
    expect(result.output).toBe('one | two');
    expect(reads).toBe(1);
    for (const call of [0, 1]) expect(systemOf(executorModel, call)).toContain('Prefers short answers.');
  });

  it('makes a parallel step that updates notes another step changed first merge instead of overwrite', async () => {
    const store = new InMemoryMemoryStore();
    const planner = new ScriptedModel([complex, { text: planJson([{ id: 's1' }, { id: 's2' }]) }]);
    // Each step writes its own note; told of a conflict, it merges; after a stored update it is done.
    // Both steps read the notes before either writes (their first calls wait for each other),
    // and step B writes only once A's write is stored: B's update is over a version it never saw.
    let started = 0;
    let bothStarted: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    let aStored: () => void = () => {};
    const aWritten = new Promise<void>((resolve) => {
      aStored = resolve;
    });
    const set = store.set.bind(store);
    store.set = async (id, value, options) => {
      const wrote = await set(id, value, options);
      if (wrote && value === 'A') aStored();
      return wrote;
    };
    const executor = new ScriptedModel(
      [
        async (request) => {
          const last = JSON.stringify(request.messages.at(-1));
          const own = JSON.stringify(request.messages).includes('do s1') ? 'A' : 'B';
          if (last.includes('changed by another conversation')) {
            return { toolCalls: [{ name: 'update_working_memory', args: { memory: 'A+B' } }] };
          }
          if (last.includes('Working memory saved')) return { text: `step ${own} done` };
          if (++started === 2) bothStarted();
          await barrier;
          if (own === 'B') await aWritten;
          return { toolCalls: [{ name: 'update_working_memory', args: { memory: own } }] };
        },
      ],
      { loop: true },
    );
    const orchestrator = new Orchestrator({
      models: {
        planner,
        executor,
        verifier: false,
        finalizer: ({ steps }) => steps.map((s) => s.output).join(' | '),
      },
      planning: { classify: 'llm' },
      memory: { store },
      limits: { stepConcurrency: 2 },
      runtime: testRuntime(),
    });
    const run = orchestrator.run('Note two things', { resourceId: 'u1' });
    const versions: number[] = [];
    run.on('memory', (e) => versions.push(e.version ?? -1));
    const result = await run.result;
    expect(result.status).toBe('success');
    // The second writer was refused (no event), merged, and wrote version 2.
    expect(versions).toEqual([1, 2]);
    expect(await store.get('u1')).toMatchObject({ value: 'A+B', version: 2 });
  });

  it('shows a later step the notes an earlier step of the run wrote', async () => {
    const { store, orchestrator, executorModel } = setup(
      [complex, { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) }],
      [
        { toolCalls: [{ name: 'update_working_memory', args: { memory: 'Lives in Oslo.' } }] },
        { text: 'noted' },
        { toolCalls: [{ name: 'update_working_memory', args: { memory: 'Lives in Oslo. Has a dog.' } }] },
        { text: 'noted too' },
      ],
    );
    await orchestrator.run('Learn about me', { resourceId: 'u1' }).result;
    expect(systemOf(executorModel, 2)).toContain('<working_memory>\nLives in Oslo.\n</working_memory>');
    expect(await store.get('u1')).toMatchObject({ value: 'Lives in Oslo. Has a dog.', version: 2 });
  });
});
