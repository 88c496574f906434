import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import type { Message, ToolResultPart } from '../../src/core/messages.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { ofType, runCollect } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

function ledger() {
  const entries: string[] = [];
  const tool = (name: string, risk: 'safe' | 'risky') =>
    defineTool({
      name,
      description: `${name} (a side effect that must not repeat)`,
      parameters: z.object({ n: z.number() }),
      risk,
      execute: ({ n }) => {
        entries.push(`${name} ${n}`);
        return `${name} ${n} done`;
      },
    });
  return { entries, tools: [tool('audit', 'safe'), tool('refund', 'risky')] };
}

const call = (id: string, name: string, n: number) =>
  ({ type: 'tool_call', id, name, arguments: JSON.stringify({ n }) }) as const;
const result = (toolCallId: string, toolName: string, content: string): ToolResultPart => ({
  type: 'tool_result',
  toolCallId,
  toolName,
  content,
  isError: false,
});
const resultsOf = (message: Message | undefined) =>
  message?.role === 'tool' ? message.content.map((p) => `${p.toolCallId}: ${p.content}`) : message?.role;

describe('Executor: tool batches that settle one call at a time', () => {
  it('checkpoints each settled result of a multi-call batch, in call order', async () => {
    const { tools } = ledger();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'audit', args: { n: 1 } },
          { name: 'audit', args: { n: 2 } },
        ],
      },
      { text: 'done' },
    ]);
    const executor = new Executor({ model, tools, runtime: testRuntime() });
    const checkpoints: unknown[] = [];
    await runCollect(executor, 'audit twice', {
      onCheckpoint: (m) => void checkpoints.push(resultsOf(m.at(-1))),
    });
    expect(checkpoints).toEqual([
      'assistant',
      ['call_1: audit 1 done'],
      ['call_1: audit 1 done', 'call_2: audit 2 done'],
    ]);
  });

  it('runs only the calls a saved partial tool message leaves unanswered and completes it in call order', async () => {
    const { entries, tools } = ledger();
    const model = new ScriptedModel([{ text: 'all audited' }]);
    const executor = new Executor({ model, tools, runtime: testRuntime() });
    const history: Message[] = [
      { role: 'user', content: 'audit three' },
      {
        role: 'assistant',
        content: [call('c1', 'audit', 1), call('c2', 'audit', 2), call('c3', 'audit', 3)],
      },
      { role: 'tool', content: [result('c2', 'audit', 'audit 2 done')] },
    ];
    const { result: out } = await runCollect(executor, [], { history });
    expect(entries).toEqual(['audit 1', 'audit 3']);
    expect(resultsOf(model.requests[0]!.messages.at(-1))).toEqual([
      'c1: audit 1 done',
      'c2: audit 2 done',
      'c3: audit 3 done',
    ]);
    expect(out?.messages).toHaveLength(4);
  });

  it('runs nothing when the last tool message answers calls of no pending turn', async () => {
    const { entries, tools } = ledger();
    const model = new ScriptedModel([{ text: 'ok' }]);
    const executor = new Executor({ model, tools, runtime: testRuntime() });
    const history: Message[] = [
      { role: 'user', content: 'audit' },
      { role: 'assistant', content: [call('c1', 'audit', 1), call('c2', 'audit', 2)] },
      { role: 'tool', content: [result('other', 'audit', 'audit 9 done')] },
    ];
    await runCollect(executor, [], { history });
    expect(entries).toEqual([]);
  });
});

describe('Executor: deferApprovals', () => {
  function deferring(script: ConstructorParameters<typeof ScriptedModel>[0]) {
    const { entries, tools } = ledger();
    const runtime = testRuntime();
    const approvals = new ApprovalGate({ bus: new MemoryInterruptBus({ clock: runtime.clock }), runtime });
    const model = new ScriptedModel(script);
    const executor = new Executor({
      model,
      tools,
      safety: { gate: approvals.gate, pauseOnInterrupt: true },
      runtime,
    });
    return { entries, approvals, model, executor };
  }

  it('runs the rest of the batch, asks every approval without waiting, and ends interrupted with the results so far', async () => {
    const { entries, executor } = deferring([
      {
        toolCalls: [
          { name: 'refund', args: { n: 1 } },
          { name: 'audit', args: { n: 2 } },
          { name: 'refund', args: { n: 3 } },
        ],
      },
    ]);
    let saved: readonly Message[] = [];
    const { events, error } = await runCollect(executor, 'refund, audit, refund', {
      onCheckpoint: (messages) => {
        saved = messages;
      },
    });
    expect(error).toMatchObject({ kind: 'interrupted' });
    expect(entries).toEqual(['audit 2']);
    expect(ofType(events, 'interrupt').map((e) => e.interrupt.toolCallId)).toEqual(['call_1', 'call_3']);
    expect(ofType(events, 'interrupt_response')).toEqual([]);
    expect(resultsOf(saved.at(-1))).toEqual(['call_2: audit 2 done']);
    expectInvariants(events);
  });

  it('runs a deferred call once its answer is given to the gate, without asking again', async () => {
    const { entries, approvals, model, executor } = deferring([{ text: 'refunded' }]);
    approvals.answer('c1', { action: 'approve' });
    const history: Message[] = [
      { role: 'user', content: 'refund, audit' },
      { role: 'assistant', content: [call('c1', 'refund', 1), call('c2', 'audit', 2)] },
      { role: 'tool', content: [result('c2', 'audit', 'audit 2 done')] },
    ];
    const { events, result: out } = await runCollect(executor, [], { history });
    expect(out?.output).toBe('refunded');
    expect(entries).toEqual(['refund 1']);
    expect(ofType(events, 'interrupt')).toEqual([]);
    expect(resultsOf(model.requests[0]!.messages.at(-1))).toEqual(['c1: refund 1 done', 'c2: audit 2 done']);
  });
});
