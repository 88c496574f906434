/** Step attempts' abort signals: one per attempt running at once, not one per attempt. */
import { describe, expect, it } from 'vitest';
import { attemptSignal } from '../../src/agents/orchestrator/attempt-signals.js';
import { decideComplex, planJson, setup } from './helpers.js';

describe('attemptSignal', () => {
  it("lends a signal whose attempt ended without aborting it to the run's next attempt", () => {
    const run = new AbortController().signal;
    const first = attemptSignal(run);
    first.release();
    const second = attemptSignal(run);
    expect(second.signal).toBe(first.signal);
    expect(second.signal.aborted).toBe(false);
  });

  it('never lends again a signal its attempt aborted', () => {
    const run = new AbortController().signal;
    const timedOut = attemptSignal(run);
    timedOut.abort(new Error('timeout'));
    timedOut.release();
    const next = attemptSignal(run);
    expect(next.signal).not.toBe(timedOut.signal);
    expect(next.signal.aborted).toBe(false);
  });

  it('lends attempts running at once signals of their own, and an attempt aborts only its own', () => {
    const run = new AbortController().signal;
    const a = attemptSignal(run);
    const b = attemptSignal(run);
    expect(a.signal).not.toBe(b.signal);
    a.abort('late');
    expect(b.signal.aborted).toBe(false);
  });

  it("aborts the signals lent and kept when the run's signal aborts, with its reason", () => {
    const controller = new AbortController();
    const lent = attemptSignal(controller.signal);
    const kept = attemptSignal(controller.signal);
    kept.release();
    controller.abort('stop');
    expect(lent.signal.reason).toBe('stop');
    expect(kept.signal.reason).toBe('stop');
  });

  it('an orchestrated run hands its sequential steps one signal, not one each', async () => {
    const { orchestrator } = setup({
      planner: [decideComplex, { text: planJson([{ id: 's1' }, { id: 's2' }, { id: 's3' }]) }],
      executor: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    const executor = (orchestrator as any).parts.executor;
    const execute = executor.execute.bind(executor);
    const signals: AbortSignal[] = [];
    executor.execute = (input: unknown, options: { signal: AbortSignal }) => {
      signals.push(options.signal);
      return execute(input, options);
    };
    const result = await orchestrator.run('Three parts').result;
    expect(result.status).toBe('success');
    expect(signals).toHaveLength(3);
    expect(new Set(signals).size).toBe(1);
  });
});
