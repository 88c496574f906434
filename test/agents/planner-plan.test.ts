import { describe, expect, it } from 'vitest';
import {
  type PlanStep,
  planProblems,
  planSchema,
  planStepView,
  singleStepPlan,
} from '../../src/agents/planner/index.js';

function step(id: string, dependsOn: string[] = []): PlanStep {
  return {
    id,
    description: `do ${id}`,
    expectedOutput: '',
    tools: [],
    expectedFiles: [],
    risk: 'safe',
    dependsOn,
  };
}

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
  it('fills defaults, accepts numeric ids and the seeds field names', () => {
    const plan = planSchema.parse({
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

  it('keeps the canonical field when both it and an alias are present', () => {
    const plan = planSchema.parse({
      title: 'T',
      summary: 'S',
      steps: [{ id: 'a', stepId: 'b', description: 'x' }],
    });
    expect(plan.steps[0]!.id).toBe('a');
  });

  it('rejects an empty step list, an unknown risk and DAG problems', () => {
    expect(planSchema.safeParse({ title: 'T', summary: 'S', steps: [] }).error?.message).toContain(
      'at least one step',
    );
    expect(
      planSchema.safeParse({ title: 'T', summary: 'S', steps: [{ id: 'a', description: 'x', risk: 'yolo' }] })
        .success,
    ).toBe(false);
    const cyclic = planSchema.safeParse({
      title: 'T',
      summary: 'S',
      steps: [
        { id: 'a', description: 'x', dependsOn: ['b'] },
        { id: 'b', description: 'y', dependsOn: ['a'] },
      ],
    });
    expect(cyclic.error?.message).toContain('Dependency cycle');
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
