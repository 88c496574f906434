/**
 * Cost is booked by the model that answered: models bridged with `fromAISDK`
 * are priced by provider and model id, a cost budget says at start which
 * models it cannot count, and after a fallback usage and cost name the
 * fallback, not the primary.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  createResilientInvoker,
  defineTool,
  EventBus,
  Executor,
  ModelError,
  Orchestrator,
  Planner,
  priceLookup,
  Router,
  type TandemEvent,
} from '../../src/index.js';
import { fromAISDK } from '../../src/providers/ai-sdk/index.js';
import { FakeClock, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { viewerStateOf } from '../../src/viewer/index.js';

type Generated = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const lookup = defineTool({
  name: 'lookup',
  description: 'Look something up',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});

/** An AI SDK model whose every reply reads one million input tokens, calling `lookup` until told otherwise. */
function aiSdkModel(provider: string, modelId: string, replies: Generated['content'][]) {
  let call = 0;
  return new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: async () => ({
      content: replies[Math.min(call++, replies.length - 1)]!,
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1_000_000, noCache: 1_000_000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

const lookupCall = (id: string): Generated['content'] => [
  { type: 'tool-call', toolCallId: id, toolName: 'lookup', input: '{"q":"x"}' },
];

async function eventsOf<T>(run: {
  on(type: '*', fn: (e: TandemEvent) => void): unknown;
  result: Promise<T>;
}) {
  const events: TandemEvent[] = [];
  run.on('*', (event) => events.push(event));
  return { result: await run.result, events };
}

describe('pricing models bridged with fromAISDK', () => {
  it('prices aisdk:<provider>:<model> ids by provider and model id', () => {
    const prices = priceLookup({ 'openai:gpt-4o': { input: 1, output: 1 } });
    expect(prices('aisdk:openai.chat:gpt-4o')).toEqual({ input: 1, output: 1 });
    expect(prices('aisdk:azure.chat:gpt-4o')).toMatchObject({ input: 2.5 });
    expect(prices('aisdk:openai.responses:gpt-5-mini-2025-08-07')).toMatchObject({ input: 0.25 });
    expect(prices('aisdk:gateway:anthropic/claude-sonnet-4-5')).toMatchObject({ input: 3 });
    expect(prices('aisdk:amazon-bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0')).toMatchObject({
      input: 1,
    });
    expect(prices('aisdk:mistral.chat:mistral-large-latest')).toBeUndefined();
  });

  it('a fromAISDK model reports its cost, and maxCostUsd stops it', async () => {
    const model = fromAISDK(
      aiSdkModel('openai.chat', 'gpt-4o', [
        lookupCall('c1'),
        lookupCall('c2'),
        [{ type: 'text', text: 'done' }],
      ]),
    );
    const executor = new Executor({ model, tools: [lookup], stream: false, runtime: testRuntime() });
    const { result, events } = await eventsOf(executor.run('Find it', { budget: { maxCostUsd: 2 } }));
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage[0]).toMatchObject({ model: 'aisdk:openai.chat:gpt-4o', usage: { costUsd: 2.5 } });
    expect(result.usage.costUsd).toBeCloseTo(2.5);
    expect(result).toMatchObject({ status: 'partial', error: { kind: 'budget' } });
    expect(usage).toHaveLength(1);
    expect(events.some((e) => e.type === 'unpriced_models')).toBe(false);
  });
});

describe('a cost budget on unpriced models', () => {
  const chain = () =>
    createResilientInvoker({
      models: [
        new ScriptedModel([{ text: 'ok' }], { id: 'openai:gpt-4o' }),
        new ScriptedModel([{ text: 'ok' }], { id: 'local:llama-3' }),
      ],
    });

  it('says at start which models it cannot count, fallbacks included', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { id: 'openai:gpt-4o' });
    const executor = new Executor({ model, resilience: { invoker: () => chain() }, runtime: testRuntime() });
    const { events } = await eventsOf(executor.run('Hi', { budget: { maxCostUsd: 1 } }));
    expect(events.slice(0, 2)).toMatchObject([
      { type: 'run_started' },
      { type: 'unpriced_models', models: ['local:llama-3'], maxCostUsd: 1 },
    ]);
    const unbudgeted = await eventsOf(executor.run('Hi'));
    expect(unbudgeted.events.some((e) => e.type === 'unpriced_models')).toBe(false);
  });

  it('counts every model unpriced when the run has no prices', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { id: 'openai:gpt-4o' });
    const executor = new Executor({ model, prices: false, runtime: testRuntime() });
    const { events } = await eventsOf(executor.run('Hi', { budget: { maxCostUsd: 1 } }));
    expect(events.find((e) => e.type === 'unpriced_models')).toMatchObject({ models: ['openai:gpt-4o'] });
  });

  it("refuses to start with a ConfigError naming them under onUnpricedModel: 'fail'", () => {
    const model = new ScriptedModel([{ text: 'ok' }], { id: 'openai:gpt-4o' });
    const executor = new Executor({ model, resilience: { invoker: () => chain() }, runtime: testRuntime() });
    const budget = { maxCostUsd: 1, onUnpricedModel: 'fail' } as const;
    expect(() => executor.run('Hi', { budget })).toThrow(ConfigError);
    expect(() => executor.run('Hi', { budget })).toThrow(/local:llama-3 has no price/);
    expect(model.calls).toBe(0);
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([], { id: 'openai:gpt-4o' }),
        executor: new ScriptedModel([], { id: 'acme:house-model' }),
      },
      runtime: testRuntime(),
    });
    expect(() => orchestrator.run('Hi', { budget })).toThrow(/acme:house-model has no price/);
    expect(() => executor.run('Hi', { budget: { maxCostUsd: 1, onUnpricedModel: 'loud' as never } })).toThrow(
      /onUnpricedModel must be 'warn' or 'fail'/,
    );
  });
});

describe('usage after a fallback', () => {
  it('books usage and cost to the model that answered, in events, result and viewer', async () => {
    const used = { inputTokens: 1_000_000, outputTokens: 0 };
    const primary = new ScriptedModel([{ error: new ModelError('rate_limit', 'slow down') }], {
      id: 'openai:gpt-4o',
    });
    const backup = new ScriptedModel([{ text: 'hello', usage: used }], { id: 'openai:gpt-4.1-nano' });
    const executor = new Executor({
      model: primary,
      resilience: { invoker: () => createResilientInvoker({ models: [primary, backup] }) },
      runtime: testRuntime(),
    });
    const { result, events } = await eventsOf(executor.run('Hi'));
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ to: 'openai:gpt-4.1-nano' });
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage).toMatchObject([{ model: 'openai:gpt-4.1-nano', usage: { costUsd: 0.1 } }]);
    expect(result.usage.costUsd).toBeCloseTo(0.1);
    expect(viewerStateOf(events).modelCalls.map((c) => c.model)).toEqual(['openai:gpt-4.1-nano']);
  });

  it('books each structured-output re-ask to the model that answered it', async () => {
    const primary = new ScriptedModel([{ error: new ModelError('rate_limit', 'slow down') }], {
      id: 'openai:gpt-4o',
      loop: true,
    });
    const backup = new ScriptedModel([{ text: '{"n": "one"}' }, { text: '{"n": 1}' }], {
      id: 'openai:gpt-5-nano',
    });
    const executor = new Executor({
      model: primary,
      resilience: { invoker: () => createResilientInvoker({ models: [primary, backup] }) },
      output: z.object({ n: z.number() }),
      runtime: testRuntime(),
    });
    const { result, events } = await eventsOf(executor.run('One?'));
    expect(result.object).toEqual({ n: 1 });
    const models = events.flatMap((e) => (e.type === 'usage' ? [e.model] : []));
    expect(models).toEqual(['openai:gpt-5-nano', 'openai:gpt-5-nano']);
  });

  it('books planner and router calls to the model that answered', async () => {
    const down = () =>
      new ScriptedModel([{ error: new ModelError('server', 'down') }], { id: 'openai:gpt-4o', loop: true });
    const chain = (backup: ScriptedModel) => {
      const primary = down();
      return {
        model: primary,
        invoker: createResilientInvoker({ models: [primary, backup], retry: { maxRetries: 0 } }),
      };
    };
    const bus = new EventBus({ runId: 'r', clock: new FakeClock() });
    const events: TandemEvent[] = [];
    bus.on('*', (event) => events.push(event));
    const planner = new Planner(
      chain(
        new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "simple"}' }], {
          id: 'openai:gpt-5-nano',
        }),
      ),
    );
    await planner.decide('Say hi', { emit: bus });
    const router = new Router({
      ...chain(
        new ScriptedModel([{ text: '{"agent": "chat", "confidence": 0.9, "reason": "greeting"}' }], {
          id: 'openai:gpt-4.1-nano',
        }),
      ),
      agents: [
        { name: 'chat', description: 'Small talk' },
        { name: 'code', description: 'Programming' },
      ],
      defaultAgent: 'chat',
    });
    expect(await router.route('hi', { emit: bus })).toMatchObject({ agent: 'chat', method: 'llm' });
    const models = events.flatMap((e) => (e.type === 'usage' ? [e.model] : []));
    expect(models).toEqual(['openai:gpt-5-nano', 'openai:gpt-4.1-nano']);
  });
});
