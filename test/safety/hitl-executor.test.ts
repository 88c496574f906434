import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/executor/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { askUserTool } from '../../src/safety/approvals/ask-user-tool.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { Guardrails } from '../../src/safety/guardrails/guardrails.js';
import { testRuntime } from '../../src/testing/fake-clock.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/types.js';
import { checkInvariants } from '../support/invariants.js';

function toolResults(model: ScriptedModel, call: number): unknown {
  const last = model.requests[call]?.messages.at(-1);
  return last?.role === 'tool'
    ? last.content.map((p) => (p.type === 'tool_result' ? p.content : p))
    : undefined;
}

describe('human in the loop inside an Executor run', () => {
  it('pauses a risky tool for approval and runs it once approved', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const deployed: string[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploy a service',
      risk: 'risky',
      parameters: z.object({ service: z.string() }),
      execute: ({ service }) => {
        deployed.push(service);
        return `deployed ${service}`;
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'call_1', name: 'deploy', args: { service: 'api' } }] },
      { text: 'Deployed.' },
    ]);
    const approvals = new ApprovalGate({
      bus,
      guardrails: new Guardrails({ clock: runtime.clock }),
      runtime,
    });
    const executor = new Executor({ model, tools: [deploy], safety: { gate: approvals.gate }, runtime });
    const run = executor.run('Deploy the api');
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    run.on('interrupt', (e) => void bus.respond(e.interrupt.id, { action: 'approve' }));
    const result = await run.result;
    expect(result.output).toBe('Deployed.');
    expect(deployed).toEqual(['api']);
    expect(checkInvariants(events)).toEqual([]);
    const types = events.map((e) => e.type).filter((t) => t.startsWith('interrupt') || t.startsWith('tool_'));
    expect(types).toEqual(['tool_call', 'interrupt', 'interrupt_response', 'tool_result']);
  });

  it('lets the model ask the user a decision and an input question', async () => {
    const runtime = testRuntime();
    const bus = new MemoryInterruptBus({ clock: runtime.clock });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'q1', name: 'ask_user', args: { question: 'Which colour?', options: ['red', 'blue'] } },
        ],
      },
      { toolCalls: [{ id: 'q2', name: 'ask_user', args: { question: 'Your name?' } }] },
      { toolCalls: [{ id: 'q3', name: 'ask_user', args: { question: 'Anything else?' } }] },
      { text: 'Thanks.' },
    ]);
    // The executor's budget must outlast the 300 s wait for an answer.
    const executor = new Executor({
      model,
      tools: [askUserTool({ bus, runtime })],
      runtime,
      limits: { timeoutMs: 600_000 },
    });
    const run = executor.run('Ask me things');
    let unanswered = false;
    run.on('interrupt', (e) => {
      const { id, kind } = e.interrupt;
      if (e.interrupt.title === 'Anything else?') unanswered = true;
      if (kind === 'decision') void bus.respond(id, { action: 'select', value: 'blue' });
      else if (e.interrupt.title === 'Your name?') void bus.respond(id, { action: 'input', value: 'Ada' });
    });
    const done = run.result;
    // The third question is never answered: the input default (skip) applies after 300 s.
    for (let i = 0; i < 20 && !unanswered; i++) await runtime.clock.advance(0);
    expect(unanswered).toBe(true);
    await runtime.clock.advance(300_000);
    await done;
    expect(toolResults(model, 1)).toEqual(['User selected: blue']);
    expect(toolResults(model, 2)).toEqual(['User responded: Ada']);
    expect(toolResults(model, 3)).toEqual([
      'The user did not answer within 300 s. User skipped this question.',
    ]);
  });
});
