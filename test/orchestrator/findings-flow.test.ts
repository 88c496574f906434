import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/index.js';
import { decideComplex, planJson, setup } from './helpers.js';

const systemOf = (request: { system?: unknown } | undefined) => String(request?.system);

describe('Orchestrator: findings along the plan', () => {
  it('hands a step without dependencies the findings of every completed earlier step, in plan order', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 'a' }, { id: 'b' }, { id: 'c' }]) }],
      executor: [{ text: 'A found: 17' }, { text: 'B found: 25' }, { text: 'sum is 42' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    await orchestrator.run('Find two numbers, then add them').result;
    const [first, second, third] = models.executor.requests.map(systemOf);
    expect(first).not.toContain('Findings of');
    expect(second).toContain('Findings of earlier steps:\n- a (do a):\nA found: 17');
    expect(third).toMatch(
      /Findings of earlier steps:\n- a \(do a\):\nA found: 17\n- b \(do b\):\nB found: 25/,
    );
  });

  it('hands a step that declares dependencies only their findings', async () => {
    const { orchestrator, models } = setup({
      planner: [decideComplex, { text: planJson([{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['b'] }]) }],
      executor: [{ text: 'A found: 17' }, { text: 'B found: 25' }, { text: 'done' }],
      verifier: [{ text: 'PASS: ok' }],
      finalizer: [{ text: 'final' }],
    });
    await orchestrator.run('Find two numbers, then use the second').result;
    const third = systemOf(models.executor.requests[2]);
    expect(third).toContain('Findings of the steps this one depends on:\n- b (do b):\nB found: 25');
    expect(third).not.toContain('A found');
  });

  it('leaves out a failed earlier step and caps each finding at maxFindingChars', async () => {
    const broken = { error: new ModelError('bad_request', 'cannot') };
    const { orchestrator, models, clock } = setup(
      {
        planner: [
          decideComplex,
          { text: planJson([{ id: 'a' }, { id: 'b' }, { id: 'c' }]) },
          { text: 'Try harder.' },
          broken,
        ],
        executor: [{ text: `A ${'x'.repeat(50)}` }, broken, broken, { text: 'done' }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { context: { maxFindingChars: 10 } },
    );
    const result = await clock.run(orchestrator.run('Three independent things').result);
    expect(result.steps.map((s) => s.status)).toEqual(['completed', 'failed', 'completed']);
    const third = systemOf(models.executor.requests.at(-1));
    expect(third).toContain('- a (do a):\nA xxxxxxxx\n... [truncated 42 characters]');
    expect(third).not.toContain('- b (do b)');
  });
});
