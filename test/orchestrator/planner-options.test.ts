import { describe, expect, it } from 'vitest';
import { ConfigError, Orchestrator } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { decideComplex, planJson, setup } from './helpers.js';

describe('Orchestrator: planner options', () => {
  it('builds its planner with plannerOptions: its prompts, JSON mode and the one-step fallback', async () => {
    const { orchestrator, models, clock } = setup(
      {
        planner: [decideComplex, { text: 'I would rather not write a plan.' }],
        executor: [{ text: 'did the whole task' }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      {
        planning: {
          attempts: 1,
          fallbackToSingleStep: true,
          jsonMode: true,
          prompts: { decide: 'Decide. Reply {"needsPlan": boolean, "reasoning": string}.' },
        },
      },
    );
    const result = await clock.run(orchestrator.run('Move the house').result);
    expect(result).toMatchObject({ status: 'success', complexity: 'complex' });
    expect(result.plan?.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({ status: 'completed', output: 'did the whole task' });
    expect(models.planner.calls).toBe(2);
    expect(models.planner.requests[0]!.system).toBe(
      'Decide. Reply {"needsPlan": boolean, "reasoning": string}.',
    );
    expect(models.planner.requests[1]!.responseFormat).toEqual({ type: 'json' });
  });

  it('re-asks the planner with the attempts and waits given in plannerOptions', async () => {
    const { orchestrator, models, clock } = setup(
      {
        planner: [
          decideComplex,
          { text: 'no plan' },
          { text: 'still none' },
          { text: planJson([{ id: 's1' }]) },
        ],
        executor: [{ text: 'done' }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { planning: { attempts: 4, retryDelaysMs: [7] } },
    );
    const run = orchestrator.run('Plan it');
    const retries: number[] = [];
    run.on('retry', (e) => retries.push(e.delayMs));
    const result = await clock.run(run.result);
    expect(result.status).toBe('success');
    expect(models.planner.calls).toBe(4);
    expect(retries).toEqual([7, 7]);
    expect(clock.now()).toBe(14);
  });

  it('rejects invalid planner options with a typed error when the orchestrator is built', () => {
    const model = new ScriptedModel([]);
    expect(
      () => new Orchestrator({ models: { planner: model, executor: model }, planning: { attempts: 0 } }),
    ).toThrow(ConfigError);
  });
});
