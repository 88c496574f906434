/** Step attempts' abort signals: one of its own per attempt, linked to the run's. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { collect, decideComplex, planJson, setup } from './helpers.js';

describe('step attempt signals', () => {
  it("never fires a listener a tool left on one attempt's signal when a later attempt times out", async () => {
    let lingering = 0;
    const linger = defineTool({
      name: 'linger',
      description: 'returns at once, leaving a listener on its signal',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => lingering++);
        return 'done';
      },
    });
    let started!: () => void;
    const hangStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let hangAborted = false;
    const hang = defineTool({
      name: 'hang',
      description: 'waits until aborted',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_, reject) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            hangAborted = true;
            reject(ctx.signal.reason);
          });
        }),
    });
    const { orchestrator, clock } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }]) }, { text: 'be quicker' }],
        executor: [
          { toolCalls: [{ name: 'linger', args: {} }] },
          { text: 'one' },
          { toolCalls: [{ name: 'hang', args: {} }] },
          { text: 'two' },
        ],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { tools: [linger, hang], limits: { stepTimeoutMs: 1_000 } },
    );
    const pending = collect(orchestrator, 'Two parts');
    await hangStarted;
    await clock.advance(1_000);
    const { events, result } = await pending;
    expect(hangAborted).toBe(true);
    expect(lingering).toBe(0);
    expect(events.find((e) => e.type === 'plan_step_failed')).toMatchObject({
      stepId: 's2',
      error: { kind: 'timeout' },
    });
    expect(result?.steps.map((s) => [s.id, s.status, s.output])).toEqual([
      ['s1', 'completed', 'one'],
      ['s2', 'completed', 'two'],
    ]);
    expectInvariants(events);
  });

  it("aborts the running attempt's work when the run is aborted, with the run's reason", async () => {
    let reason: unknown;
    let started!: () => void;
    const hangStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hang = defineTool({
      name: 'hang',
      description: 'waits until aborted',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_, reject) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            reject(ctx.signal.reason);
          });
        }),
    });
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
        executor: [{ toolCalls: [{ name: 'hang', args: {} }] }],
      },
      { tools: [hang] },
    );
    const controller = new AbortController();
    const pending = collect(orchestrator, 'One part', controller.signal);
    await hangStarted;
    const stop = new Error('caller stopped');
    controller.abort(stop);
    await pending;
    expect(reason).toBe(stop);
  });
});
