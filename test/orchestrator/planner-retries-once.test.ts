import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/index.js';
import { decideComplex, setup } from './helpers.js';

const unavailable = () => ({ error: new ModelError('overloaded', 'Service Unavailable', { status: 503 }) });

describe('Orchestrator: a planner that keeps failing', () => {
  it('is retried by the invoker alone: the planner’s own attempts do not multiply the retries', async () => {
    const { orchestrator, models, clock } = setup({
      planner: [decideComplex, ...Array.from({ length: 20 }, unavailable)],
      executor: [{ text: 'did the whole task' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    const run = orchestrator.run('Move the house');
    const retries: unknown[] = [];
    run.on('retry', (e) => retries.push(e));
    await clock.run(run.result);
    // One decision, then the plan call and the invoker's 3 retries — not 3 planner attempts × 4 calls.
    expect(models.planner.calls).toBe(1 + 4);
    expect(retries).toHaveLength(3);
  });
});
