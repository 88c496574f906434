/** Shared set-up of the orchestrator tests: scripted planner / executor / verifier / finalizer models. */
import { z } from 'zod';
import { Orchestrator, type OrchestratorOptions, type OrchestratorResult } from '../../src/agents/index.js';
import type { PlanStep } from '../../src/agents/planner/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

export const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
  parallelSafe: true,
});

export interface StepSpec {
  id: string;
  description?: string;
  dependsOn?: string[];
}

/** A plan reply as the planner model writes it. */
export function planJson(steps: StepSpec[], title = 'Test plan'): string {
  return JSON.stringify({
    title,
    summary: `${title} summary`,
    steps: steps.map((s) => ({
      id: s.id,
      description: s.description ?? `do ${s.id}`,
      expectedOutput: `${s.id} output`,
      tools: ['add'],
      expectedFiles: [],
      risk: 'safe',
      dependsOn: s.dependsOn ?? [],
    })),
  });
}

export const decideComplex = { text: '{"needsPlan": true, "reasoning": "several steps"}' };

export interface Models {
  planner: ScriptedModel;
  executor: ScriptedModel;
  verifier: ScriptedModel;
  finalizer: ScriptedModel;
}

/** An orchestrator over four scripted models and a fake clock. */
export function setup(
  scripts: {
    planner?: ScriptEntry[];
    executor?: ScriptEntry[];
    verifier?: ScriptEntry[];
    finalizer?: ScriptEntry[];
  },
  options: Omit<Partial<OrchestratorOptions>, 'models'> & {
    models?: Partial<OrchestratorOptions['models']>;
  } = {},
) {
  const runtime = testRuntime();
  const models: Models = {
    planner: new ScriptedModel(scripts.planner ?? [], { id: 'scripted:planner' }),
    executor: new ScriptedModel(scripts.executor ?? [], { id: 'scripted:executor' }),
    verifier: new ScriptedModel(scripts.verifier ?? [], { id: 'scripted:verifier' }),
    finalizer: new ScriptedModel(scripts.finalizer ?? [], { id: 'scripted:finalizer' }),
  };
  const orchestrator = new Orchestrator({
    tools: [add],
    runtime,
    ...options,
    models: {
      planner: models.planner,
      executor: models.executor,
      verifier: models.verifier,
      finalizer: models.finalizer,
      ...options?.models,
    },
    planning: { classify: 'llm', ...options?.planning },
  });
  return { orchestrator, models, clock: runtime.clock };
}

/** Runs a task and collects its events and outcome. */
export async function collect(
  orchestrator: Orchestrator,
  task: string,
  signal?: AbortSignal,
): Promise<{ events: TandemEvent[]; result?: OrchestratorResult; error?: any }> {
  const run = orchestrator.run(task, { signal });
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  try {
    const result = await run.result;
    // A run that did not succeed resolves with its typed error (docs/results.md).
    return result.status === 'success' ? { events, result } : { events, result, error: result.error };
  } catch (error) {
    return { events, error };
  }
}

/** A compact trace of the lifecycle events: `type` plus the detail that matters. */
export function trace(events: readonly TandemEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'stage':
        out.push(`stage:${e.name}:${e.status}`);
        break;
      case 'plan_step_started':
        out.push(`step_started:${e.stepId}:${e.mode}`);
        break;
      case 'plan_step_completed':
        out.push(`step_completed:${e.stepId}`);
        break;
      case 'plan_step_failed':
        out.push(`step_failed:${e.stepId}:${e.skipped ? 'skipped' : e.willRetry ? 'retry' : 'final'}`);
        break;
      case 'tool_call':
      case 'tool_result':
        out.push(`${e.type}:${e.stepId}`);
        break;
      case 'run_started':
      case 'routing':
      case 'plan_overview':
      case 'plan_revised':
      case 'complete':
      case 'error':
        out.push(e.type);
        break;
      default:
    }
  }
  return out;
}

/** A plan step with only an id and its dependencies set. */
export function planStep(id: string, dependsOn: string[] = []): PlanStep {
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
