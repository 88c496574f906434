/**
 * Run budgets on tokens, cost, tool calls and wall-clock time (seed: the
 * orchestrator's budget). Pressure is the largest share of any limit used;
 * at `warnAt` (0.8) the run says so once with a `budget` event, and at 1 it
 * stops at the next turn or step boundary with a `partial` result of kind
 * `budget`. The run's {@link BudgetGuard} is asked at those boundaries and
 * returns the stop; tokens and cost come from the run's usage total, so
 * every model call of the run — executor, planner, verifier, a skill — counts.
 * @module
 */
import { ConfigError, isErrorOf, RunError } from './errors.js';
import type { EventPayloads, TandemEvent } from './events.js';
import { type PriceLookup, unpricedModels } from './pricing.js';
import type { CancelTimer, Clock } from './seams.js';
import type { Usage } from './usage.js';

/** Limits of one run. Absent limits do not count. */
export interface RunBudgetLimits {
  /** Input plus output tokens of every model call. */
  maxTokens?: number;
  /** US dollars (needs prices for the run's models; unpriced calls cost nothing here). */
  maxCostUsd?: number;
  /** Tool calls, parallel ones counted one by one. */
  maxToolCalls?: number;
  /** Milliseconds since the run started (time waiting for a human included). */
  maxWallClockMs?: number;
  /** Pressure at which the `budget` warning is emitted. Default 0.8. */
  warnAt?: number;
  /**
   * With `maxCostUsd`, what a run does when a model it may call (fallbacks
   * included) has no price, so the limit cannot count its spending: `warn`
   * (default) emits `unpriced_models` right after `run_started` and runs;
   * `fail` refuses to start the run with a {@link ConfigError} naming them.
   */
  onUnpricedModel?: 'warn' | 'fail';
}

/** Payload of the `budget` event: the resource under the most pressure. */
export type BudgetPressure = EventPayloads['budget'];

/** What a budget counts. */
export type BudgetResource = BudgetPressure['resource'];

type LimitField = 'maxTokens' | 'maxCostUsd' | 'maxToolCalls' | 'maxWallClockMs';

const FIELDS: ReadonlyArray<[LimitField, BudgetResource]> = [
  ['maxTokens', 'tokens'],
  ['maxCostUsd', 'cost'],
  ['maxToolCalls', 'tool_calls'],
  ['maxWallClockMs', 'wall_clock'],
];

/**
 * Counts a run's use against its limits. Feed it every event of the run
 * ({@link RunBudget.observe}); it returns the `budget` event to emit when
 * pressure first reaches the warning level and when it reaches 1.
 */
export class RunBudget {
  private tokens = 0;
  private cost = 0;
  private toolCalls = 0;
  private warned = false;
  private stop: BudgetPressure | undefined;
  private readonly warnAt: number;

  /** @throws {ConfigError} when a limit is not a positive number or `warnAt` is not in (0, 1]. */
  constructor(
    private readonly limits: RunBudgetLimits,
    private readonly startedAt: number,
    /** What the run spent before (a resumed run's saved total). */
    spent?: Usage,
  ) {
    this.tokens = spent ? spent.inputTokens + spent.outputTokens : 0;
    this.cost = spent?.costUsd ?? 0;
    for (const [field] of FIELDS) {
      const value = limits[field];
      if (value !== undefined && !(typeof value === 'number' && value > 0)) {
        throw new ConfigError(`budget.${field} must be a positive number, got ${String(value)}.`);
      }
    }
    this.warnAt = limits.warnAt ?? 0.8;
    if (!(this.warnAt > 0 && this.warnAt <= 1)) {
      throw new ConfigError(`budget.warnAt must be in (0, 1], got ${String(limits.warnAt)}.`);
    }
  }

  /** True when `limits` sets any limit. */
  static isSet(limits: RunBudgetLimits | undefined): limits is RunBudgetLimits {
    return !!limits && FIELDS.some(([field]) => limits[field] !== undefined);
  }

  /** Why the run must stop, once pressure reached 1. */
  get exceeded(): BudgetPressure | undefined {
    return this.stop;
  }

  /** Counts one event; returns a `budget` payload to emit, if this event crossed a level. */
  observe(event: TandemEvent): BudgetPressure | undefined {
    if (event.type === 'usage') {
      this.tokens += event.usage.inputTokens + event.usage.outputTokens;
      this.cost += event.usage.costUsd ?? 0;
    } else if (event.type === 'tool_call') {
      this.toolCalls++;
    } else if (event.type === 'budget') {
      return undefined;
    }
    return this.check(event.at);
  }

  /** Counts `count` more tool calls. */
  addToolCalls(count: number): void {
    this.toolCalls += count;
  }

  /** Sets tokens and cost from a run's usage total (what a resumed run spent included). */
  setUsage(total: Usage): void {
    this.tokens = total.inputTokens + total.outputTokens;
    this.cost = total.costUsd ?? 0;
  }

  /** Re-checks at `now` (wall-clock pressure grows without events). */
  check(now: number): BudgetPressure | undefined {
    if (this.stop) return undefined;
    const top = this.pressure(now);
    if (!top) return undefined;
    if (top.pressure >= 1) {
      this.stop = { ...top, action: 'stop' };
      return this.stop;
    }
    if (top.pressure >= this.warnAt && !this.warned) {
      this.warned = true;
      return { ...top, action: 'warn' };
    }
    return undefined;
  }

  private pressure(now: number): Omit<BudgetPressure, 'action'> | undefined {
    let top: Omit<BudgetPressure, 'action'> | undefined;
    for (const [field, resource] of FIELDS) {
      const limit = this.limits[field];
      if (limit === undefined) continue;
      const used = this.used(resource, now);
      const pressure = used / limit;
      if (!top || pressure > top.pressure) top = { resource, used, limit, pressure };
    }
    return top;
  }

  private used(resource: BudgetResource, now: number): number {
    if (resource === 'tokens') return this.tokens;
    if (resource === 'cost') return this.cost;
    if (resource === 'tool_calls') return this.toolCalls;
    return Math.max(0, now - this.startedAt);
  }
}

/**
 * A run's budget as the work inside the run sees it (a step job's context
 * carries it): tool calls are counted before they run, and the spend is
 * checked between steps and turns.
 */
export interface BudgetCheck {
  /** Counts tool calls about to run (parallel ones one by one). */
  countToolCalls(count: number): void;
  /** The budget error once the run's use reached a limit, `undefined` while it may go on. */
  check(): RunError | undefined;
}

/** The run a {@link BudgetGuard} holds to its limits: what it reads and whom it tells. */
export interface BudgetedRun {
  clock: Clock;
  /** The run's live usage total. */
  usage: Usage;
  /** Reports a `budget` event (warning or stop). */
  report: (pressure: BudgetPressure) => void;
  /** Aborts the run's work in flight once the budget stopped it. */
  stop: (error: RunError) => void;
}

/**
 * Holds one run to its limits. Whatever produces use asks it at its own
 * boundaries — the executor's loop after each model call and before each
 * tool batch, the orchestrator between phases and steps — and gets the stop
 * back as a value ({@link BudgetGuard.check}); no event listener ends a run.
 * Tokens and cost are read from the run's usage total (every model call of
 * the run adds to it, a resumed run's saved spending included), so the
 * planner's and verifier's calls count too. The first stop decision also
 * aborts the run's other work through `stop`, so parallel steps overshoot by
 * at most the call in flight; a wall-clock limit is also watched on timers of
 * the clock, which report the warning and abort calls still waiting at the
 * deadline — the loop that sees the abort returns the budget stop.
 */
export class BudgetGuard implements BudgetCheck {
  private readonly budget: RunBudget;
  private readonly timers: CancelTimer[] = [];
  private error: RunError | undefined;

  private readonly clock: Clock;
  private readonly usage: Usage;
  private readonly report: (pressure: BudgetPressure) => void;
  private readonly stop: (error: RunError) => void;

  /** @throws {ConfigError} for an invalid limit (see {@link RunBudget}). */
  constructor(limits: RunBudgetLimits, run: BudgetedRun) {
    const { clock } = run;
    this.clock = clock;
    this.usage = run.usage;
    this.report = run.report;
    this.stop = run.stop;
    this.budget = new RunBudget(limits, clock.now());
    const wall = limits.maxWallClockMs;
    if (wall !== undefined) {
      const warnAt = limits.warnAt ?? 0.8;
      this.timers.push(clock.setTimer(Math.ceil(wall * warnAt), () => this.check()));
      this.timers.push(clock.setTimer(wall, () => this.check()));
    }
  }

  /** Counts tool calls about to run (parallel ones one by one). */
  countToolCalls(count: number): void {
    this.budget.addToolCalls(count);
  }

  /**
   * The budget error once the run's use reached a limit, `undefined` while it
   * may go on. Reports the warning and the stop as they are first reached.
   */
  check(): RunError | undefined {
    if (this.error) return this.error;
    this.budget.setUsage(this.usage);
    const pressure = this.budget.check(this.clock.now());
    if (pressure) this.report(pressure);
    const exceeded = this.budget.exceeded;
    if (!exceeded) return undefined;
    this.error = budgetError(exceeded);
    this.stop(this.error);
    return this.error;
  }

  /** Cancels the wall-clock timers. */
  dispose(): void {
    for (const cancel of this.timers) cancel();
    this.timers.length = 0;
  }
}

/**
 * The `unpriced_models` payload of a run held to `limits` that may call
 * `models` (ids), when its cost limit cannot count some of them; `undefined`
 * when it has no cost limit or every model is priced.
 * @throws {ConfigError} naming the unpriced models when `limits.onUnpricedModel` is `fail`, or for another value of it.
 */
export function checkModelPrices(
  limits: RunBudgetLimits,
  models: Iterable<string>,
  prices: PriceLookup | undefined,
): EventPayloads['unpriced_models'] | undefined {
  const policy = limits.onUnpricedModel ?? 'warn';
  if (policy !== 'warn' && policy !== 'fail') {
    throw new ConfigError(`budget.onUnpricedModel must be 'warn' or 'fail', got ${JSON.stringify(policy)}.`);
  }
  const maxCostUsd = limits.maxCostUsd;
  if (maxCostUsd === undefined) return undefined;
  const unpriced = unpricedModels(models, prices);
  if (unpriced.length === 0) return undefined;
  if (policy === 'fail') {
    const one = unpriced.length === 1;
    throw new ConfigError(
      `budget.maxCostUsd is set but ${unpriced.join(', ')} ${one ? 'has' : 'have'} no price, so what ${one ? 'it spends' : 'they spend'} would not count against it. Add ${one ? 'it' : 'them'} to \`prices\`, or set budget.onUnpricedModel to 'warn'.`,
    );
  }
  return { models: unpriced, maxCostUsd };
}

/** The error a run stopped by its budget ends with. */
export function budgetError(pressure: BudgetPressure): RunError {
  const what = pressure.resource.replace('_', ' ');
  return new RunError(
    'budget',
    `Stopped by the run budget: ${what} ${round(pressure.used)} of ${round(pressure.limit)} used`,
  );
}

/** True for the error of {@link budgetError} (e.g. a run signal's abort reason). */
export function isBudgetStop(value: unknown): value is RunError {
  return isErrorOf(value, RunError) && value.kind === 'budget';
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, '');
}
