import { describe, expect, it } from 'vitest';
import { AgentRegistry, HandoffManager, Orchestrator, Router } from '../../src/agents/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { expectInvariants } from '../support/invariants.js';
import { collect } from './helpers.js';

function base(extra: Record<string, unknown>) {
  const planner = new ScriptedModel([], { id: 'scripted:planner' });
  const executor = new ScriptedModel([], { id: 'scripted:executor' });
  const runtime = testRuntime();
  return {
    planner,
    executor,
    runtime,
    o: new Orchestrator({ runtime, ...extra, models: { planner, executor } }),
  };
}

describe('Orchestrator: explicit modes and routing', () => {
  it('runs a dedicated skill mode directly: no model turn, the skill gets the task as its parameter', async () => {
    const calls: unknown[] = [];
    const skills = {
      invokeDirect: async (id: string, params: unknown) => {
        calls.push([id, params]);
        return { report: 'WebGPU is shipping', sources: 3 };
      },
    };
    const { o, planner, executor } = base({ skills });
    const run = o.run('state of WebGPU', { mode: 'research' });
    const events: any[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(calls).toEqual([['research', { query: 'state of WebGPU' }]]);
    // The answer is the skill's report, not its JSON.
    expect(result.output).toBe('WebGPU is shipping');
    expect(planner.calls + executor.calls).toBe(0);
    expect(events.find((e) => e.type === 'routing')).toMatchObject({ agent: 'research', method: 'explicit' });
    expectInvariants(events);
  });

  it.each([
    ['data', 'data_analysis', 'query', { summary: 'Mean price is 4.2' }, 'Mean price is 4.2'],
    [
      'app',
      'app_builder',
      'description',
      { url: 'http://127.0.0.1:4100/', files: [] },
      'Running at http://127.0.0.1:4100/',
    ],
    ['slide', 'slide_generation', 'topic', { file: 'deck.pptx', slides: 4 }, 'Wrote deck.pptx'],
    ['image', 'image_generation', 'prompt', { files: ['cat.png'] }, '{\n  "files": [\n    "cat.png"\n  ]\n}'],
  ])(
    'mode %s invokes %s with the task as %s, the sandbox passed, no model call',
    async (mode, skill, param, output, answer) => {
      const calls: unknown[] = [];
      const sandbox = { id: 'sandbox' } as never;
      const skills = {
        has: () => true,
        invokeDirect: async (id: string, params: unknown, options: { sandbox?: unknown }) => {
          calls.push([id, params, options.sandbox]);
          return output;
        },
      };
      const { o, planner, executor } = base({ skills, sandbox });
      const result = await o.run('the task', { mode }).result;
      expect(calls).toEqual([[skill, { [param]: 'the task' }, sandbox]]);
      expect(result.output).toBe(answer);
      expect(planner.calls + executor.calls).toBe(0);
    },
  );

  it('the research mode falls back to web_research when no "research" skill is registered', async () => {
    const calls: string[] = [];
    const skills = {
      has: (id: string) => id === 'web_research',
      invokeDirect: async (id: string) => {
        calls.push(id);
        return { report: 'done' };
      },
    };
    const { o } = base({ skills });
    await o.run('q', { mode: 'research' }).result;
    expect(calls).toEqual(['web_research']);
  });

  it('runs a named agent directly when the mode is an agent of the handoff manager', async () => {
    const coder = new ScriptedModel([{ text: 'code written' }]);
    const agents = new AgentRegistry([
      { name: 'code', description: 'writes code', instructions: 'You write code.', model: coder },
    ]);
    const { o, planner } = base({ handoffs: new HandoffManager({ agents, runtime: testRuntime() }) });
    const result = await o.run('write fizzbuzz', { mode: 'code' }).result;
    expect(result).toMatchObject({ output: 'code written', agent: 'code', status: 'success' });
    expect(coder.requests[0]!.system).toBe('You write code.');
    expect(planner.calls).toBe(0);
  });

  it('routes with the router: a specialist runs through its agent, the default agent takes the plan-or-not path', async () => {
    const research = new ScriptedModel([{ text: 'found papers' }]);
    const agents = new AgentRegistry([
      { name: 'chat', description: 'general chat', instructions: 'Chat.', model: new ScriptedModel([]) },
      { name: 'research', description: 'finds sources', instructions: 'Research.', model: research },
    ]);
    const routerModel = new ScriptedModel([
      { text: '{"agent": "research", "confidence": 0.9, "reason": "needs sources"}' },
      { text: '{"agent": "chat", "confidence": 0.3, "reason": "small talk"}' },
    ]);
    const router = new Router({ model: routerModel, agents: agents.descriptors(), defaultAgent: 'chat' });
    const { o, executor } = base({
      handoffs: new HandoffManager({ agents, runtime: testRuntime() }),
      router,
      planning: { classify: 'heuristic' },
    });
    const first = await collect(o, 'find papers on retrieval');
    expect(first.result).toMatchObject({ output: 'found papers', agent: 'research' });
    executor.push({ text: 'hello!' });
    const second = await collect(o, 'hi there');
    expect(second.result).toMatchObject({ output: 'hello!', complexity: 'simple' });
    const routings = second.events.filter((e) => e.type === 'routing');
    expect(routings[0]).toMatchObject({ agent: 'chat', lowConfidence: true, method: 'llm' });
  });

  it('ends with a typed config error for an unknown mode', async () => {
    const { o } = base({});
    const { error, events } = await collectMode(o, 'anything', 'nonexistent');
    expect(error).toMatchObject({ kind: 'config' });
    expect(events.at(-1)?.type).toBe('error');
  });
});

async function collectMode(o: Orchestrator, task: string, mode: string) {
  const run = o.run(task, { mode });
  const events: any[] = [];
  run.on('*', (e) => events.push(e));
  try {
    return { events, result: await run.result };
  } catch (error) {
    return { events, error };
  }
}
