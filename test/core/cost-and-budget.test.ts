import { describe, expect, it } from 'vitest';
import { RunBudget } from '../../src/core/index.js';
import {
  ConfigError,
  costOf,
  EventBus,
  emptyUsage,
  isErrorOf,
  priceLookup,
  type TandemEvent,
} from '../../src/index.js';
import { createProgressStore } from '../../src/state/index.js';
import { FakeClock } from '../../src/testing/index.js';

const usage = (inputTokens: number, outputTokens: number, extra = {}) => ({
  ...emptyUsage(),
  inputTokens,
  outputTokens,
  ...extra,
});

describe('costOf', () => {
  it('prices uncached input, cached input, output and reasoning per million tokens', () => {
    const price = { input: 2, cachedInput: 0.5, output: 8, reasoning: 10 };
    const cost = costOf(
      usage(1_000_000, 500_000, { cachedInputTokens: 400_000, reasoningTokens: 100_000 }),
      price,
    );
    // 600k×2 + 400k×0.5 + 400k×8 + 100k×10, per million
    expect(cost).toBeCloseTo(1.2 + 0.2 + 3.2 + 1, 10);
  });

  it('bills cached and reasoning tokens at the input and output price when the table has none', () => {
    const cost = costOf(usage(1_000_000, 1_000_000, { cachedInputTokens: 10, reasoningTokens: 10 }), {
      input: 1,
      output: 2,
    });
    expect(cost).toBeCloseTo(3, 10);
  });
});

describe('priceLookup', () => {
  it('finds a model by id, without its provider prefix, and by family for dated variants', () => {
    const prices = priceLookup({ 'my-model': { input: 1, output: 1 } });
    expect(prices('my-model')).toEqual({ input: 1, output: 1 });
    expect(prices('openai:gpt-4o')).toMatchObject({ input: 2.5 });
    expect(prices('gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15 });
    expect(prices('openai:GPT-4o-2024-08-06')).toMatchObject({ input: 2.5 });
    expect(prices('unknown-model')).toBeUndefined();
  });

  it("the user's table overrides the defaults, and defaults can be left out", () => {
    expect(priceLookup({ 'gpt-4o': { input: 1, output: 1 } })('gpt-4o')).toMatchObject({ input: 1 });
    expect(priceLookup({}, { defaults: false })('gpt-4o')).toBeUndefined();
  });

  it('rejects a negative or non-numeric price with a ConfigError naming it', () => {
    expect(() => priceLookup({ m: { input: -1, output: 1 } })).toThrow(/prices\["m"\]\.input/);
    const error = (() => {
      try {
        priceLookup({ m: { input: 1, output: Number.NaN } });
      } catch (e) {
        return e;
      }
    })();
    expect(isErrorOf(error, ConfigError)).toBe(true);
  });
});

describe('an event bus with prices', () => {
  it('stamps costUsd on each usage event, its total and the run usage; unpriced calls get none', () => {
    const bus = new EventBus({ runId: 'r', clock: new FakeClock(), prices: priceLookup() });
    const events: TandemEvent<'usage'>[] = [];
    bus.on('usage', (e) => events.push(e));
    const shared = usage(1_000_000, 0);
    bus.emit('usage', { model: 'openai:gpt-4o', usage: shared, total: shared });
    bus.emit('usage', { model: 'local:llama', usage: usage(10, 10), total: emptyUsage() });
    bus.emit('usage', { model: 'gpt-4o-mini', usage: usage(0, 1_000_000), total: emptyUsage() });
    expect(events[0]!.usage.costUsd).toBeCloseTo(2.5);
    expect(shared.costUsd).toBeUndefined();
    expect(events[1]!.usage.costUsd).toBeUndefined();
    expect(events[2]!.total.costUsd).toBeCloseTo(3.1);
    expect(bus.usage.costUsd).toBeCloseTo(3.1);
  });

  it('without prices no cost appears', () => {
    const bus = new EventBus({ runId: 'r', clock: new FakeClock() });
    bus.emit('usage', { model: 'gpt-4o', usage: usage(1, 1), total: emptyUsage() });
    expect(bus.usage.costUsd).toBeUndefined();
  });

  it('the progress store shows cost per run and per step', () => {
    const bus = new EventBus({ runId: 'r', clock: new FakeClock(), prices: priceLookup() });
    const store = createProgressStore();
    bus.on('*', (e) => store.apply(e));
    bus.emit('plan_overview', {
      title: 'T',
      summary: 'S',
      steps: [{ id: 'a', description: 'A', dependsOn: [], status: 'pending' }],
    });
    bus
      .scope({ stepId: 'a' })
      .emit('usage', { model: 'gpt-4o', usage: usage(1_000_000, 0), total: emptyUsage() });
    bus
      .scope({ stepId: 'ghost' })
      .emit('usage', { model: 'gpt-4o', usage: usage(1_000_000, 0), total: emptyUsage() });
    const state = store.getState();
    expect(state.usage.costUsd).toBeCloseTo(5);
    expect(state.plan?.steps).toHaveLength(1);
    expect(state.plan?.steps[0]?.usage?.costUsd).toBeCloseTo(2.5);
  });
});

describe('RunBudget', () => {
  const at = (type: string, fields: object, time = 0) =>
    ({ type, runId: 'r', seq: 1, at: time, ...fields }) as TandemEvent;

  it('warns once at 0.8 of the most used limit and stops at 1', () => {
    const budget = new RunBudget({ maxTokens: 1000, maxToolCalls: 10 }, 0);
    expect(budget.observe(at('usage', { usage: usage(500, 200) }))).toBeUndefined();
    expect(budget.observe(at('usage', { usage: usage(100, 0) }))).toMatchObject({
      resource: 'tokens',
      used: 800,
      limit: 1000,
      action: 'warn',
    });
    expect(budget.observe(at('usage', { usage: usage(50, 0) }))).toBeUndefined();
    expect(budget.exceeded).toBeUndefined();
    expect(budget.observe(at('usage', { usage: usage(150, 0) }))).toMatchObject({
      action: 'stop',
      pressure: 1,
    });
    expect(budget.exceeded).toMatchObject({ resource: 'tokens' });
  });

  it('counts tool calls, cost and wall-clock time', () => {
    const calls = new RunBudget({ maxToolCalls: 2 }, 0);
    calls.observe(at('tool_call', {}));
    expect(calls.observe(at('tool_call', {}))).toMatchObject({ resource: 'tool_calls', action: 'stop' });
    const cost = new RunBudget({ maxCostUsd: 1 }, 0);
    expect(cost.observe(at('usage', { usage: usage(0, 0, { costUsd: 1.5 }) }))).toMatchObject({
      resource: 'cost',
    });
    const time = new RunBudget({ maxWallClockMs: 1000 }, 5000);
    expect(time.check(5500)).toBeUndefined();
    expect(time.check(5900)).toMatchObject({ resource: 'wall_clock', action: 'warn' });
    expect(time.check(6000)).toMatchObject({ action: 'stop' });
  });

  it('rejects limits that are not positive numbers', () => {
    expect(() => new RunBudget({ maxTokens: 0 }, 0)).toThrow(/budget\.maxTokens/);
    expect(() => new RunBudget({ maxCostUsd: Number.NaN }, 0)).toThrow(ConfigError);
    expect(() => new RunBudget({ warnAt: 2 }, 0)).toThrow(/warnAt/);
    expect(RunBudget.isSet({ warnAt: 0.5 })).toBe(false);
    expect(RunBudget.isSet({ maxToolCalls: 3 })).toBe(true);
  });
});
