/** The scorers: text, schema, custom, tool trajectory and plan shape on recorded runs, budget, and the LLM judge. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTask,
  budget,
  dataset,
  evaluate,
  exactMatch,
  includes,
  llmJudge,
  matchesSchema,
  planShape,
  regex,
  type Scorer,
  toolTrajectory,
} from '../../src/evals/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { calculatorAgent, populationOrchestrator } from './scenario.js';

const c = { id: '0', input: 'q', expected: 'Paris' };
const score = (s: Scorer, output: unknown, extra: object = {}) =>
  s.score({ case: c, output, events: [], latencyMs: 0, ...extra });

describe('text scorers', () => {
  it('exact, includes, regex and schema score 0–1 with a reason', async () => {
    expect(await score(exactMatch(), ' Paris ')).toMatchObject({ score: 1 });
    expect(await score(exactMatch(), 'paris')).toMatchObject({ score: 0, reason: 'expected Paris' });
    expect(await score(exactMatch({ ignoreCase: true }), 'paris')).toMatchObject({ score: 1 });
    expect(await score(includes({ needles: ['Paris', 'France'] }), 'Paris is nice')).toEqual({
      score: 0.5,
      reason: 'missing "France"',
    });
    expect(await score(regex(/\bparis\b/gi), 'in Paris.')).toMatchObject({ score: 1 });
    const shape = matchesSchema(z.object({ n: z.number() }));
    expect(await score(shape, '{"n": 1}')).toMatchObject({ score: 1 });
    expect(await score(shape, { n: 'x' })).toMatchObject({ score: 0, reason: expect.stringContaining('n') });
    expect(await score(shape, 'not json')).toEqual({ score: 0, reason: 'output is not JSON' });
  });
});

describe('scorers on recorded runs', () => {
  it('tool trajectory: expected tools in order with argument subsets, forbidden tools score 0', async () => {
    const data = await dataset([{ input: 'What is 2+3?' }]);
    const run = (instructions: string) =>
      evaluate({
        dataset: data,
        task: agentTask(calculatorAgent(instructions)),
        scorers: [
          toolTrajectory({ expected: [{ name: 'calculator', args: { a: 2 } }] }),
          toolTrajectory({ name: 'no-guess', forbidden: ['guess'] }),
          toolTrajectory({ name: 'wrong-args', expected: [{ name: 'calculator', args: { a: 9 } }] }),
        ],
      });
    const good = (await run('Use the calculator.')).cases[0]!;
    expect(good.trials[0]!.output).toBe('The answer is 5.');
    expect(good.trials[0]!.status).toBe('success');
    expect(good.trials[0]!.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(good.trials[0]!.events.some((e) => e.type === 'tool_call')).toBe(true);
    expect(good.scores.trajectory!.mean).toBe(1);
    expect(good.scores['no-guess']!.mean).toBe(1);
    expect(good.scores['wrong-args']!.mean).toBe(0);
    const broken = (await run('Answer quickly.')).cases[0]!;
    expect(broken.trials[0]!.scores.trajectory!.reason).toBe('missing calculator in order (calls: guess)');
    expect(broken.trials[0]!.scores['no-guess']).toEqual({ score: 0, reason: 'called forbidden tool guess' });
  });

  it('plan shape: step count, dependencies on earlier steps, no repeated step', async () => {
    const data = await dataset([
      { id: 'ok', input: ['Lisbon', 'Porto'] },
      { id: 'repeat', input: ['Braga'], metadata: { repeat: true } },
    ]);
    const results = await evaluate({
      dataset: data,
      task: agentTask<string[]>(
        (cities) => populationOrchestrator(cities, { repeatStep: cities[0] === 'Braga' }),
        {
          prompt: (cities) => `Total population of ${cities.join(' and ')}`,
        },
      ),
      scorers: [planShape({ maxSteps: 3 }), toolTrajectory({ expected: ['lookup_population', 'add'] })],
    });
    const [ok, repeat] = results.cases;
    expect(ok!.trials[0]).toMatchObject({ status: 'success', output: 'Together they have 777000 people.' });
    expect(ok!.trials[0]!.scores.plan).toEqual({ score: 1, reason: '3 steps, well formed' });
    expect(ok!.scores.trajectory!.mean).toBe(1);
    expect(repeat!.trials[0]!.scores.plan).toEqual({
      score: 2 / 3,
      reason: 'repeated step: look up the population of braga',
    });
    const none = await planShape().score({ case: c, output: '', events: [], latencyMs: 0 });
    expect(none).toEqual({ score: 0, reason: 'no plan in the events' });
  });

  it('plan shape: a dependency on a later or unknown step, and too many steps', async () => {
    const steps = [
      { id: 'b', description: 'B', dependsOn: ['a'], status: 'pending' as const },
      { id: 'a', description: 'A', dependsOn: [], status: 'pending' as const },
    ];
    const events = [
      { type: 'plan_overview', runId: 'r', seq: 1, at: 0, title: 't', summary: 's', steps },
    ] as never[];
    const result = await planShape({ maxSteps: 1 }).score({ case: c, output: '', events, latencyMs: 0 });
    expect(result).toEqual({
      score: 1 / 3,
      reason: '2 steps, outside 1–1; dependencies not on an earlier step: b → a',
    });
  });

  it('tool trajectory: calls out of order score the share found in order', async () => {
    const call = (seq: number, name: string) => ({
      type: 'tool_call',
      runId: 'r',
      seq,
      at: 0,
      id: `c${seq}`,
      name,
      args: {},
    });
    const events = [call(1, 'add'), call(2, 'lookup_population')] as never[];
    const result = await toolTrajectory({ expected: ['lookup_population', 'add'] }).score({
      case: c,
      output: '',
      events,
      latencyMs: 0,
    });
    expect(result).toEqual({ score: 0.5, reason: 'missing add in order (calls: add, lookup_population)' });
  });

  it('budget: tokens, cost and latency limits', async () => {
    const usage = {
      inputTokens: 80,
      outputTokens: 40,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.02,
    };
    const limits = budget({ maxTokens: 100, maxCostUsd: 0.01, maxLatencyMs: 50 });
    expect(await score(limits, '', { usage, latencyMs: 60 })).toEqual({
      score: 0,
      reason: '120 tokens > 100; $0.02 > $0.01; 60 ms > 50 ms',
    });
    expect(await score(budget({ maxTokens: 200 }), '', { usage })).toEqual({
      score: 1,
      reason: 'within budget',
    });
    expect(await score(budget({ maxCostUsd: 1 }), '', {})).toMatchObject({
      score: 0,
      reason: 'cost unknown (no prices)',
    });
  });
});

describe('llmJudge', () => {
  it('grades by the rubric through structured output, re-asks an unusable verdict, and reports its own usage and cost', async () => {
    const judge = new ScriptedModel(
      [
        { text: 'I think it is fine', usage: { inputTokens: 100, outputTokens: 10 } },
        {
          text: '```json\n{"score": 0.8, "reason": "Names the capital."}\n```',
          usage: { inputTokens: 150, outputTokens: 20 },
        },
      ],
      { id: 'judge-model' },
    );
    const scorer = llmJudge({
      model: judge,
      rubric: 'The answer names the capital of France.',
      prices: { 'judge-model': { input: 1, output: 2 } },
    });
    const data = await dataset([{ input: 'Capital of France?', expected: 'Paris' }]);
    const results = await evaluate({ dataset: data, task: () => 'It is <b>Paris</b>.', scorers: [scorer] });
    const verdict = results.cases[0]!.trials[0]!.scores.judge!;
    expect(verdict).toMatchObject({ score: 0.8, reason: 'Names the capital.' });
    expect(verdict.usage).toMatchObject({
      inputTokens: 250,
      outputTokens: 30,
      costUsd: (250 * 1 + 30 * 2) / 1e6,
    });
    expect(results.usage.inputTokens).toBe(250);
    expect(results.cases[0]!.scores.judge!.passes).toBe(1);
    const prompt = JSON.stringify(judge.requests[0]!.messages);
    expect(prompt).toContain('The answer names the capital of France.');
    expect(prompt).toContain('Reference answer:\\nParis');
    expect(prompt).toContain('It is <b>Paris</b>.');
  });
});
