/**
 * `tandem-agents/testing` ships the event-ordering invariant checker that
 * docs/events.md points users to, usable on their own runs' events.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, isErrorOf, type TandemEvent } from '../../src/index.js';
import {
  checkInvariants,
  expectInvariants,
  InvariantError,
  ScriptedModel,
  testRuntime,
} from '../../src/testing/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

async function runEvents(): Promise<TandemEvent[]> {
  const model = new ScriptedModel([
    { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
    { text: 'The sum is 5.' },
  ]);
  const run = new Executor({ model, tools: [add], runtime: testRuntime() }).run('2 + 3?');
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  await run.result;
  return events;
}

describe('tandem-agents/testing: the event invariant checker', () => {
  it('finds no violation in a real run and expectInvariants passes', async () => {
    const events = await runEvents();
    expect(checkInvariants(events)).toEqual([]);
    expect(() => expectInvariants(events)).not.toThrow();
  });

  it('names each violation: a tool_call without its result, events after the terminal one', async () => {
    const events = await runEvents();
    const withoutResult = events.filter((e) => e.type !== 'tool_result');
    expect(checkInvariants(withoutResult)).toEqual([
      expect.stringMatching(/^tool_call call_1 .* no tool_result$/),
    ]);
    const last = events.at(-1)!;
    const afterEnd = [...events, { ...last, seq: last.seq + 1 }];
    expect(checkInvariants(afterEnd)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('emitted after the terminal event'),
        'expected exactly one terminal event, got 2',
      ]),
    );
  });

  it('checks an Executor.execute slice without a terminal event when asked to', async () => {
    const slice = (await runEvents()).filter((e) => e.type !== 'complete');
    expect(checkInvariants(slice, { terminal: false })).toEqual([]);
    expect(checkInvariants(slice)).toContain('expected exactly one terminal event, got 0');
  });

  it('expectInvariants throws a typed InvariantError listing the violations and the trace', async () => {
    const events = (await runEvents()).filter((e) => e.type !== 'tool_result');
    let thrown: unknown;
    try {
      expectInvariants(events);
    } catch (error) {
      thrown = error;
    }
    expect(isErrorOf(thrown, InvariantError)).toBe(true);
    expect(thrown).toMatchObject({ kind: 'violated', name: 'InvariantError' });
    expect((thrown as Error).message).toMatch(/- tool_call call_1 .* no tool_result\nevents: 1:run_started /);
  });
});
