import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor } from '../../src/agents/index.js';
import type { Message } from '../../src/core/messages.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { runCollect } from '../support/executor-fixtures.js';

function counterTool() {
  const calls: number[] = [];
  const tool = defineTool({
    name: 'charge',
    description: 'Charges a card (a side effect that must not repeat)',
    parameters: z.object({ cents: z.number() }),
    execute: ({ cents }) => {
      calls.push(cents);
      return `charged ${cents}`;
    },
  });
  return { tool, calls };
}

const assistantCall = (id: string, cents: number): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name: 'charge', arguments: JSON.stringify({ cents }) }],
});

describe('Executor checkpoints and resume', () => {
  it('reports the conversation after a tool turn is accepted and again after its results', async () => {
    const { tool } = counterTool();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'charge', args: { cents: 5 } }] },
      { text: 'done' },
    ]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });
    const snapshots: string[][] = [];
    await runCollect(executor, 'pay', {
      onCheckpoint: (messages) => {
        snapshots.push(messages.map((m) => m.role));
      },
    });
    expect(snapshots).toEqual([
      ['user', 'assistant'],
      ['user', 'assistant', 'tool'],
    ]);
  });

  it('runs tool calls left without results before asking the model again', async () => {
    const { tool, calls } = counterTool();
    const model = new ScriptedModel([{ text: 'paid' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });
    const history: Message[] = [{ role: 'user', content: 'pay 7' }, assistantCall('c1', 7)];
    const { result } = await runCollect(executor, [], { history });
    expect(calls).toEqual([7]);
    expect(result?.output).toBe('paid');
    expect(model.requests[0]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: 'c1', content: 'charged 7' }],
    });
  });

  it('never re-executes a tool whose result is already in the conversation', async () => {
    const { tool, calls } = counterTool();
    const model = new ScriptedModel([{ text: 'already paid' }]);
    const executor = new Executor({ model, tools: [tool], runtime: testRuntime() });
    const history: Message[] = [
      { role: 'user', content: 'pay 7' },
      assistantCall('c1', 7),
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'charge', content: 'charged 7' }],
      },
    ];
    const { result } = await runCollect(executor, [], { history });
    expect(calls).toEqual([]);
    expect(result?.output).toBe('already paid');
  });
});

describe('Executor: a stream broken after visible text', () => {
  it('keeps the text already shown and asks the model to continue, without repeating it', async () => {
    const { ModelError } = await import('../../src/core/errors.js');
    const { createResilientInvoker } = await import('../../src/model/resilience/resilient-invoker.js');
    const model = new ScriptedModel(
      [
        {
          error: new ModelError('connection', 'socket hang up'),
          afterParts: [{ type: 'text-delta', delta: 'The answer is ' }],
        },
        { text: '42.' },
      ],
      { chunking: 'whole' },
    );
    const runtime = testRuntime();
    const executor = new Executor({
      model,
      resilience: { invoker: () => createResilientInvoker({ models: [model], runtime }) },
      runtime,
    });
    const { result, events } = await runCollect(executor, 'What is the answer?');
    expect(result?.output).toBe('The answer is 42.');
    const tokens = events.filter((e) => e.type === 'token').map((e) => (e.type === 'token' ? e.delta : ''));
    expect(tokens.join('')).toBe('The answer is 42.');
    expect(model.requests[1]!.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'The answer is ' }],
    });
    expect(events.some((e) => e.type === 'retry' && e.error.kind === 'connection')).toBe(true);
  });
});
