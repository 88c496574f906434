import { describe, expect, it } from 'vitest';
import { AgentRegistry, HandoffManager, Orchestrator, Router, type TandemEvent } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { expectInvariants } from '../support/invariants.js';

function routed(routerReply: string) {
  const runtime = testRuntime();
  const research = new ScriptedModel([{ text: 'found papers' }]);
  const agents = new AgentRegistry([
    { name: 'chat', description: 'general chat', instructions: 'Chat.', model: new ScriptedModel([]) },
    { name: 'research', description: 'finds sources', instructions: 'Research.', model: research },
  ]);
  const routerModel = new ScriptedModel([{ text: routerReply }], { id: 'scripted:router' });
  const executor = new ScriptedModel([], { id: 'scripted:executor' });
  const orchestrator = new Orchestrator({
    models: { planner: new ScriptedModel([], { id: 'scripted:planner' }), executor },
    planning: { classify: 'heuristic' },
    handoffs: new HandoffManager({ agents, runtime }),
    router: new Router({ model: routerModel, agents: agents.descriptors(), defaultAgent: 'chat', runtime }),
    runtime,
  });
  return { orchestrator, routerModel, executor };
}

async function runMode(orchestrator: Orchestrator, task: string, mode: string) {
  const run = orchestrator.run(task, { mode });
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  const result = await run.result;
  return { result, events, routings: events.filter((e) => e.type === 'routing') };
}

describe('Orchestrator: an unknown explicit mode', () => {
  it('falls through to the router, whose routing event says the mode was unknown', async () => {
    const { orchestrator, routerModel } = routed(
      '{"agent": "research", "confidence": 0.9, "reason": "needs sources"}',
    );
    const { result, events, routings } = await runMode(orchestrator, 'find papers on retrieval', 'bogus');
    expect(result).toMatchObject({ output: 'found papers', agent: 'research', status: 'success' });
    expect(routerModel.calls).toBe(1);
    expect(routings).toEqual([
      expect.objectContaining({
        agent: 'research',
        method: 'llm',
        reason: 'Unknown mode "bogus", routed instead: needs sources',
      }),
    ]);
    expectInvariants(events);
  });

  it('takes the plan-or-not path when the router picks its default agent', async () => {
    const { orchestrator, executor } = routed('{"agent": "chat", "confidence": 0.9, "reason": "small talk"}');
    executor.push({ text: 'hello!' });
    const { result, routings } = await runMode(orchestrator, 'hi there', 'chatty');
    expect(result).toMatchObject({ output: 'hello!', complexity: 'simple' });
    expect(routings.map((e) => [e.agent, e.method])).toEqual([
      ['chat', 'llm'],
      ['executor', 'heuristic'],
    ]);
    expect(routings[0]!.reason).toBe('Unknown mode "chatty", routed instead: small talk');
  });

  it('is still an explicit mode when it names an agent: no router call', async () => {
    const { orchestrator, routerModel } = routed('{"agent": "chat"}');
    const { result, routings } = await runMode(orchestrator, 'find papers', 'research');
    expect(result.agent).toBe('research');
    expect(routerModel.calls).toBe(0);
    expect(routings).toEqual([expect.objectContaining({ agent: 'research', method: 'explicit' })]);
  });
});
