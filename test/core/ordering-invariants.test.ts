import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelError } from '../../src/core/errors.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { ScriptEntry } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { add, callAdd, deferred, runCollect, setup } from '../support/executor-fixtures.js';
import { checkInvariants, expectInvariants } from '../support/invariants.js';

const boom = defineTool({
  name: 'boom',
  description: 'Throws',
  parameters: z.object({}),
  execute: () => {
    throw new Error('kaput');
  },
});
const slow = defineTool({
  name: 'slow',
  description: 'Takes 1 s on the run clock',
  parameters: z.object({ n: z.number() }),
  parallelSafe: true,
  timeoutMs: 1_000,
  execute: (_args, ctx) =>
    new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
});
const tools = [add, boom, slow];

const steps: Record<string, ScriptEntry> = {
  add: callAdd(1, 2),
  parallel: {
    toolCalls: [
      { name: 'add', args: { a: 1, b: 1 } },
      { name: 'add', args: { a: 2, b: 2 } },
    ],
  },
  slowPair: {
    toolCalls: [
      { name: 'slow', args: { n: 1 } },
      { name: 'slow', args: { n: 2 } },
    ],
  },
  unknown: {
    toolCalls: [
      { name: 'nope', args: {} },
      { name: 'add', args: { a: 1, b: 1 } },
    ],
  },
  brokenJson: { toolCalls: [{ name: 'add', arguments: '{"a":' }] },
  schema: { toolCalls: [{ name: 'add', args: { a: 'x' } }] },
  throws: { toolCalls: [{ name: 'boom', args: {} }] },
  empty: { text: '' },
  truncated: { text: 'part ', finishReason: 'length' },
  streamError: { error: new ModelError('server', 'reset'), afterParts: [{ type: 'text-delta', delta: 'x' }] },
  answer: { text: 'final answer' },
};

describe('ordering invariants over real executor runs', () => {
  it.each(Object.keys(steps))('hold for a run whose model replies %s until the script ends', async (name) => {
    const { executor, clock } = setup([steps[name]!, steps[name]!, steps[name]!, steps.answer!], { tools });
    const { events } = await runCollect(executor, 'q', {}, () => clock.runAll());
    expectInvariants(events);
  });

  it('hold when the run is aborted in the middle of a parallel batch', async () => {
    const started = deferred();
    const { executor } = setup([steps.slowPair!], {
      tools: [
        defineTool({
          name: 'slow',
          description: 'Waits',
          parameters: z.object({ n: z.number() }),
          parallelSafe: true,
          execute: () => {
            started.resolve();
            return new Promise(() => {});
          },
        }),
      ],
    });
    const { events, error } = await runCollect(executor, 'q', {}, async (run) => {
      await started.promise;
      run.abort();
    });
    expect(error.kind).toBe('aborted');
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
    expect(events.map((e) => e.type)).toContain('parallel_complete');
    expectInvariants(events);
  });

  it('hold for any script (property)', async () => {
    const names = Object.keys(steps);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        async (script, maxIterations) => {
          const { executor, clock } = setup(
            script.map((n) => steps[n]!),
            { tools, limits: { maxIterations } },
          );
          const { events, result, error } = await runCollect(executor, 'q', {}, () => clock.runAll());
          expect(checkInvariants(events)).toEqual([]);
          // Every ending resolves with a result; only a failed or partial one carries an error.
          expect(result).toBeDefined();
          expect(error !== undefined).toBe(result!.status !== 'success');
          expect(events.at(-1)!.type).toBe('complete');
        },
      ),
      { numRuns: 150, seed: 20240601 },
    );
  });
});

describe('the invariant checker', () => {
  const base = { runId: 'r', at: 0 };
  const ev = (seq: number, rest: Record<string, unknown>) => ({ ...base, seq, ...rest }) as TandemEvent;
  const done = (seq: number) => ev(seq, { type: 'complete', output: '', status: 'success', usage: {} });

  it('accepts a valid stream', () => {
    expect(
      checkInvariants([
        ev(1, { type: 'stage', name: 's', status: 'running' }),
        ev(2, { type: 'tool_call', id: 'a', name: 't', args: {} }),
        ev(3, { type: 'tool_result', id: 'a', name: 't', output: '', isError: false, durationMs: 0 }),
        ev(4, { type: 'stage', name: 's', status: 'completed' }),
        done(5),
      ]),
    ).toEqual([]);
  });

  it.each([
    [
      'non-increasing seq',
      [ev(2, { type: 'token', delta: '' }), ev(2, { type: 'token', delta: '' }), done(3)],
      'seq',
    ],
    [
      'a call without result',
      [ev(1, { type: 'tool_call', id: 'a', name: 't', args: {} }), done(2)],
      'no tool_result',
    ],
    [
      'a result without call',
      [
        ev(1, { type: 'tool_result', id: 'a', name: 't', output: '', isError: false, durationMs: 0 }),
        done(2),
      ],
      'without a preceding',
    ],
    [
      'two results for one call',
      [
        ev(1, { type: 'tool_call', id: 'a', name: 't', args: {} }),
        ev(2, { type: 'tool_result', id: 'a', name: 't', output: '', isError: false, durationMs: 0 }),
        ev(3, { type: 'tool_result', id: 'a', name: 't', output: '', isError: false, durationMs: 0 }),
        done(4),
      ],
      'second tool_result',
    ],
    ['an unclosed stage', [ev(1, { type: 'stage', name: 's', status: 'running' }), done(2)], 'left running'],
    ['no terminal event', [ev(1, { type: 'token', delta: '' })], 'exactly one terminal'],
    ['an event after the terminal', [done(1), ev(2, { type: 'token', delta: '' })], 'after the terminal'],
    ['two terminal events', [done(1), done(2)], 'exactly one terminal'],
  ] as const)('reports %s', (_name, events, problem) => {
    expect(checkInvariants(events as unknown as TandemEvent[]).join('\n')).toContain(problem);
  });
});
