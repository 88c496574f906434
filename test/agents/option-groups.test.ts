import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  defineTool,
  Executor,
  Guardrails,
  MemoryCheckpointStore,
  Orchestrator,
  type OrchestratorOptions,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo a word',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => word,
});

const callEcho = (word: string) => ({ toolCalls: [{ name: 'echo', args: { word } }] });

/** The content of the last tool result the model was sent in request `n`. */
function lastToolResult(model: ScriptedModel, n: number): string {
  const last = model.requests[n]!.messages.at(-1)!;
  return last.role === 'tool' && last.content[0]?.type === 'tool_result'
    ? String(last.content[0].content)
    : '';
}

describe('options of the flat shape before the groups', () => {
  it('an Executor names the group an old option moved to', () => {
    const model = new ScriptedModel([]);
    const flat = { model, retry: false } as unknown as ConstructorParameters<typeof Executor>[0];
    expect(() => new Executor(flat)).toThrow(ConfigError);
    expect(() => new Executor(flat)).toThrow('`retry` moved to `resilience.retry`');
    const context = { model, context: () => undefined } as unknown as ConstructorParameters<
      typeof Executor
    >[0];
    expect(() => new Executor(context)).toThrow('`context` moved to `context.manager`');
  });

  it('an Orchestrator names the group an old option moved to, and needs its models', () => {
    const model = new ScriptedModel([]);
    const flat = { planner: model, executor: model } as unknown as OrchestratorOptions;
    expect(() => new Orchestrator(flat)).toThrow('`planner` moved to `models.planner`');
    const store = { models: { planner: model, executor: model }, checkpoints: new MemoryCheckpointStore() };
    expect(() => new Orchestrator(store as unknown as OrchestratorOptions)).toThrow(
      '`checkpoints` is `{ store, onError? }`',
    );
    const none = { models: { planner: model } } as unknown as OrchestratorOptions;
    expect(() => new Orchestrator(none)).toThrow('`models.planner` and `models.executor` are required');
  });
});

describe('the groups an Orchestrator shares with its executors', () => {
  it('`limits.maxIterations` bounds each execution of a run', async () => {
    const model = new ScriptedModel([callEcho('a'), callEcho('b'), { text: 'never' }]);
    const orchestrator = new Orchestrator({
      models: { planner: model, executor: model, verifier: false },
      tools: [echo],
      planning: { classify: 'heuristic' },
      limits: { maxIterations: 1 },
      runtime: testRuntime(),
    });
    const result = await orchestrator.run('say a').result;
    expect(result.status).toBe('partial');
    expect(result.error).toMatchObject({ kind: 'max_iterations' });
    expect(model.calls).toBe(1);
  });

  it("`safety.guardrails` runs its tool stage on the executors' calls", async () => {
    const model = new ScriptedModel([callEcho('secret'), { text: 'done' }]);
    const runtime = testRuntime();
    const guardrails = new Guardrails({
      clock: runtime.clock,
      tool: [
        {
          name: 'no-secrets',
          scan: ({ args }) =>
            JSON.stringify(args).includes('secret') ? [{ rule: 'secret', reason: 'secrets stay home' }] : [],
        },
      ],
    });
    const orchestrator = new Orchestrator({
      models: { planner: model, executor: model, verifier: false },
      tools: [echo],
      planning: { classify: 'heuristic' },
      safety: { guardrails },
      runtime,
    });
    const result = await orchestrator.run('say secret').result;
    expect(result.output).toBe('done');
    expect(lastToolResult(model, 1)).toContain('Tool blocked: secrets stay home');
  });

  it('`modelSettings` reach every executor request', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    const orchestrator = new Orchestrator({
      models: { planner: model, executor: model, verifier: false },
      planning: { classify: 'heuristic' },
      modelSettings: { temperature: 0.1, maxOutputTokens: 64 },
      runtime: testRuntime(),
    });
    await orchestrator.run('hi').result;
    expect(model.requests[0]).toMatchObject({ temperature: 0.1, maxOutputTokens: 64 });
  });
});

describe('OrchestratorResult.steps', () => {
  it('lists each step as a StepResult of its own', async () => {
    const plan = JSON.stringify({
      title: 'T',
      summary: 'S',
      steps: [
        {
          id: 'a',
          description: 'do a',
          expectedOutput: '',
          tools: [],
          expectedFiles: [],
          risk: 'safe',
          dependsOn: [],
        },
      ],
    });
    const planner = new ScriptedModel([{ text: '{"needsPlan": true, "reasoning": "x"}' }, { text: plan }]);
    const executor = new ScriptedModel([{ text: 'a done' }]);
    const orchestrator = new Orchestrator({
      models: {
        planner,
        executor,
        verifier: false,
        finalizer: ({ steps }) => steps.map((s) => s.output).join(),
      },
      planning: { classify: 'llm' },
      runtime: testRuntime(),
    });
    const result = await orchestrator.run('do a').result;
    expect(result.steps).toEqual([
      { id: 'a', description: 'do a', status: 'completed', output: 'a done', attempts: 1 },
    ]);
  });
});
