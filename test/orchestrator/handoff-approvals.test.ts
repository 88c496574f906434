/**
 * A handoff agent's tool that needs approval, run in the agent's mode or
 * routed to it: the run ends `interrupted` with the call in
 * `result.interruptions`, and `state.approve` / `state.reject` then
 * `resume(state)` continue the agent where it stopped — the same path as
 * the orchestrator's own tools, answered through the orchestrator's approvals.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentRegistry,
  defineTool,
  HandoffManager,
  MemoryCheckpointStore,
  Orchestrator,
  Router,
  type RunState,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

function opsAgent() {
  const deployed: string[] = [];
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploy a service',
    parameters: z.object({ service: z.string() }),
    needsApproval: true,
    execute: ({ service }) => {
      deployed.push(service);
      return `deployed ${service}`;
    },
  });
  const model = new ScriptedModel([
    { toolCalls: [{ id: 'd1', name: 'deploy', args: { service: 'checkout' } }] },
    { text: 'Checkout is live.' },
  ]);
  const agents = new AgentRegistry([
    { name: 'chat', description: 'general chat', instructions: 'Chat.', model: new ScriptedModel([]) },
    { name: 'ops', description: 'deploys services', instructions: 'You deploy.', model, tools: [deploy] },
  ]);
  return { agents, model, deployed };
}

function orchestrator(agents: AgentRegistry, extra: Record<string, unknown> = {}) {
  const runtime = testRuntime();
  const store = new MemoryCheckpointStore<RunState>();
  const o = new Orchestrator({
    handoffs: new HandoffManager({ agents, runtime }),
    runtime,
    ...extra,
    models: { planner: new ScriptedModel([]), executor: new ScriptedModel([]) },
    checkpoints: { store },
  });
  return { o, store };
}

describe("a handoff agent's approvals pause and resume the orchestrated run", () => {
  it('in the agent mode: interrupted with the call, approved, resumed from JSON without the mode', async () => {
    const { agents, model, deployed } = opsAgent();
    const { o, store } = orchestrator(agents);
    const run = o.run('Deploy checkout', { mode: 'ops' });
    const paused = await run.result;
    expect(paused.status).toBe('interrupted');
    expect(paused.interruptions).toMatchObject([
      { kind: 'approval', toolName: 'deploy', args: { service: 'checkout' }, callId: 'd1' },
    ]);
    expect(deployed).toEqual([]);
    expect((await store.load(run.runId))!.status).toBe('paused');

    paused.state!.approve(paused.interruptions![0]!.id);
    const resumed = await o.resume(JSON.parse(JSON.stringify(paused.state))).result;
    expect(resumed).toMatchObject({ status: 'success', output: 'Checkout is live.', agent: 'ops' });
    expect(deployed).toEqual(['checkout']);
    // The agent continued its conversation: two model calls in all, the second after the tool's result.
    expect(model.calls).toBe(2);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('routed to the agent: a rejection reaches the agent, which answers without running the tool', async () => {
    const { agents, model, deployed } = opsAgent();
    const routerModel = new ScriptedModel([
      { text: '{"agent": "ops", "confidence": 0.9, "reason": "deploys"}' },
    ]);
    const router = new Router({ model: routerModel, agents: agents.descriptors(), defaultAgent: 'chat' });
    const { o } = orchestrator(agents, { router, planning: { classify: 'heuristic' } });
    const paused = await o.run('Deploy checkout').result;
    expect(paused.status).toBe('interrupted');
    paused.state!.reject(paused.interruptions![0]!.id, 'not during the freeze');
    const resumed = await o.resume(paused.state).result;
    // The router is not asked again: the run continues in the agent it paused in.
    expect(routerModel.calls).toBe(1);
    expect(deployed).toEqual([]);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        {
          content: expect.stringContaining(
            'User denied execution of deploy: not during the freeze. The tool was not executed.',
          ),
        },
      ],
    });
    expect(resumed.status).toBe('success');
  });
});
