import { describe, expect, it } from 'vitest';
import { planProblems, planSchema, planStepView, singleStepPlan } from '../../src/agents/planner/index.js';
import { validateSchema } from '../../src/model/schema.js';
import { planStep } from '../orchestrator/helpers.js';

/** The plan `planSchema` reads from `value`; fails the test when it refuses it. */
async function parsePlan(value: unknown) {
  const outcome = await validateSchema(planSchema, value);
  if (!outcome.success) throw new Error(outcome.issues.map((i) => i.message).join('; '));
  return outcome.data;
}

/** The messages of `planSchema`'s issues with `value` (none when it passes). */
async function planIssues(value: unknown): Promise<string[]> {
  const outcome = await validateSchema(planSchema, value);
  return outcome.success ? [] : outcome.issues.map((i) => i.message);
}

const step = planStep;

describe('planProblems', () => {
  it('accepts a valid DAG', () => {
    expect(planProblems([step('a'), step('b', ['a']), step('c', ['a', 'b'])])).toEqual([]);
  });

  it('reports duplicate ids', () => {
    expect(planProblems([step('a'), step('a')])).toEqual([expect.stringContaining('Duplicate step id "a"')]);
  });

  it('reports a dependency on a missing step', () => {
    expect(planProblems([step('a', ['zzz'])])).toEqual([
      expect.stringContaining('Step "a" depends on "zzz", which is not a step of the plan'),
    ]);
  });

  it('reports a cycle with its path, a self-dependency included', () => {
    const problems = planProblems([step('a', ['c']), step('b', ['a']), step('c', ['b'])]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('Dependency cycle: a -> c -> b -> a');
    expect(planProblems([step('a', ['a'])])[0]).toContain('Dependency cycle: a -> a');
  });
});

describe('planSchema', () => {
  it('fills defaults, accepts numeric ids and the seeds field names', async () => {
    const plan = await parsePlan({
      title: 'T',
      summary: 'S',
      steps: [
        { stepId: 1, goal: 'read', toolsToUse: 'read_file', riskLevel: 'Safe' },
        { id: 'two', description: 'write', dependencies: [1], expected_output: 'a file', extra: true },
      ],
    });
    expect(plan).toEqual({
      title: 'T',
      summary: 'S',
      steps: [
        {
          id: '1',
          description: 'read',
          expectedOutput: '',
          tools: ['read_file'],
          expectedFiles: [],
          risk: 'safe',
          dependsOn: [],
        },
        {
          id: 'two',
          description: 'write',
          expectedOutput: 'a file',
          tools: [],
          expectedFiles: [],
          risk: 'moderate',
          dependsOn: ['1'],
        },
      ],
    });
  });

  it('keeps the canonical field when both it and an alias are present', async () => {
    const plan = await parsePlan({
      title: 'T',
      summary: 'S',
      steps: [{ id: 'a', stepId: 'b', description: 'x' }],
    });
    expect(plan.steps[0]!.id).toBe('a');
  });

  it('rejects an empty step list, an unknown risk and DAG problems', async () => {
    expect(await planIssues({ title: 'T', summary: 'S', steps: [] })).toEqual([
      expect.stringContaining('at least one step'),
    ]);
    expect(
      await planIssues({ title: 'T', summary: 'S', steps: [{ id: 'a', description: 'x', risk: 'yolo' }] }),
    ).not.toEqual([]);
    const cyclic = await planIssues({
      title: 'T',
      summary: 'S',
      steps: [
        { id: 'a', description: 'x', dependsOn: ['b'] },
        { id: 'b', description: 'y', dependsOn: ['a'] },
      ],
    });
    expect(cyclic).toEqual([expect.stringContaining('Dependency cycle')]);
  });
});

describe('plan helpers', () => {
  it('builds a one-step fallback plan that records why', () => {
    const plan = singleStepPlan('fix the bug', 'model down');
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ id: 'step-1', description: 'fix the bug', dependsOn: [] });
    expect(plan.fallbackReason).toBe('model down');
  });

  it('gives the event view of a step', () => {
    expect(planStepView(step('b', ['a']), 'running')).toEqual({
      id: 'b',
      description: 'do b',
      dependsOn: ['a'],
      status: 'running',
    });
  });
});
