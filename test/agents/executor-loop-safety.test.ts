import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  budgetWarning,
  callKey,
  RepetitionGuard,
  repetitionNote,
  stableJson,
} from '../../src/agents/index.js';
import { defineTool } from '../../src/tools/types.js';
import { add, allText, callAdd, lastToolResult, runCollect, setup } from '../support/executor-fixtures.js';

const fail = defineTool({
  name: 'fail',
  description: 'Always fails',
  parameters: z.object({ n: z.number() }),
  execute: () => {
    throw new Error('disk on fire');
  },
});
const callFail = (n: number) => ({ toolCalls: [{ name: 'fail', args: { n } }] });

describe('anti-repetition', () => {
  it('normalises arguments: trims, collapses path slashes, sorts URL queries and keys', () => {
    expect(callKey('read', { path: ' /a//b/ ', depth: 1 })).toBe(callKey('read', { depth: 1, path: '/a/b' }));
    expect(callKey('read', { path: './x//y' })).toBe(callKey('read', { path: './x/y' }));
    expect(callKey('get', { url: 'https://x.io/s?b=2&a=1#top' })).toBe(
      callKey('get', { url: 'https://x.io/s?a=1&b=2#top' }),
    );
    expect(callKey('get', { q: { z: 1, a: ['x'] } })).toBe(callKey('get', { q: { a: ['x'], z: 1 } }));
    expect(callKey('read', { path: '/a' })).not.toBe(callKey('write', { path: '/a' }));
    expect(callKey('read', { path: '/a' })).not.toBe(callKey('read', { path: '/b' }));
    expect(stableJson({ b: undefined, a: 1n })).toBe('{"a":1n}');
  });

  it('counts the identical calls that end the window of five', () => {
    const guard = new RepetitionGuard();
    expect(guard.streak()).toBe(0);
    for (const key of ['a', 'b', 'b']) guard.push(key);
    expect(guard.streak()).toBe(2);
    for (let i = 0; i < 10; i++) guard.push('c');
    expect(guard.streak()).toBe(5);
    guard.push('d');
    expect(guard.streak()).toBe(1);
  });

  it('is mild at two, strong at three, silent otherwise', () => {
    const call = { toolName: 'add', args: '{"a":1}', sameResult: true };
    expect(repetitionNote(call, 1)).toBeUndefined();
    expect(repetitionNote(call, 2)).toContain('DIFFERENT strategy');
    expect(repetitionNote(call, 3)).toContain('MUST change strategy');
  });

  it('sends a mild note after two identical calls and a strong one after three, in the next request only', async () => {
    const { model, executor } = setup([
      callAdd(1, 1),
      callAdd(1, 1),
      callAdd(1, 1),
      callAdd(5, 5),
      { text: 'done' },
    ]);
    const { result } = await runCollect(executor, 'q');
    const [, r1, r2, r3, r4] = model.requests.map((r) => lastToolResult(r));
    expect(r1).toBe('2');
    expect(r2).toContain('[Repetition detected]');
    expect(r2).toContain('DIFFERENT strategy');
    expect(r3).toContain('MUST change strategy');
    expect(r4).toBe('10');
    expect(allText(result!.messages)).not.toContain('Repetition detected');
  });

  it('counts two identical calls within one turn', async () => {
    const twice = {
      toolCalls: [
        { name: 'add', args: { a: 1, b: 1 } },
        { name: 'add', args: { b: 1, a: 1 } },
      ],
    };
    const { model, executor } = setup([twice, { text: 'done' }]);
    await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[1]!)).toContain('[Repetition detected]');
  });
});

describe('consecutive tool errors', () => {
  it('sends the critical recovery note after three failing turns in a row', async () => {
    const { model, executor } = setup([callFail(1), callFail(2), callFail(3), { text: 'giving up' }], {
      tools: [add, fail],
    });
    const { result } = await runCollect(executor, 'q');
    expect(lastToolResult(model.requests[2]!)).not.toContain('CRITICAL');
    expect(lastToolResult(model.requests[3]!)).toContain(
      'CRITICAL: You have failed 3 consecutive tool calls',
    );
    expect(allText(result!.messages)).not.toContain('CRITICAL');
  });

  it('resets the streak after a clean turn', async () => {
    const { model, executor } = setup(
      [callFail(1), callFail(2), callAdd(1, 2), callFail(3), { text: 'ok' }],
      {
        tools: [add, fail],
      },
    );
    await runCollect(executor, 'q');
    for (const request of model.requests) expect(allText(request.messages)).not.toContain('CRITICAL');
  });
});

describe('budget warnings', () => {
  it('computes the warning from 70 % and 90 % of the budget', () => {
    expect(budgetWarning(6, 10)).toBeUndefined();
    expect(budgetWarning(7, 10)).toBe(
      '[BUDGET: 3 iterations left. Prioritize remaining work and avoid unnecessary tool calls.]',
    );
    expect(budgetWarning(9, 10)).toBe(
      '[BUDGET WARNING: 1 iteration(s) left. Provide your final response NOW if you have enough information.]',
    );
    expect(budgetWarning(5, 0)).toBeUndefined();
    expect(budgetWarning(5, Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('appends one current warning to the last tool result of the next request and never stores it', async () => {
    const script = Array.from({ length: 9 }, (_, i) => callAdd(i, 100));
    const { model, executor } = setup([...script, { text: 'final' }]);
    const { result } = await runCollect(executor, 'q');
    const results = model.requests.map((r) => lastToolResult(r));
    expect(results[6]).toBe('105');
    expect(results[7]).toBe(
      '106\n\n[BUDGET: 3 iterations left. Prioritize remaining work and avoid unnecessary tool calls.]',
    );
    expect(results[8]).toContain('[BUDGET: 2 iterations left.');
    expect(results[9]).toContain('[BUDGET WARNING: 1 iteration(s) left.');
    const last = allText(model.requests[9]!.messages);
    expect(last.match(/\[BUDGET/g)).toHaveLength(1);
    expect(allText(result!.messages)).not.toContain('BUDGET');
    expect(result!.output).toBe('final');
  });

  it('puts all notes of a turn after the last tool result, budget last', async () => {
    const { model, executor } = setup([callAdd(1, 1), callAdd(1, 1), callAdd(1, 1), { text: 'ok' }], {
      limits: { maxIterations: 4 },
    });
    await runCollect(executor, 'q');
    const text = lastToolResult(model.requests[3]!);
    expect(text.startsWith('2\n\n[Repetition detected]')).toBe(true);
    expect(
      text.endsWith(
        '[BUDGET: 1 iterations left. Prioritize remaining work and avoid unnecessary tool calls.]',
      ),
    ).toBe(true);
  });
});
