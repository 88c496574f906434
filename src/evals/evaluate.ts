/**
 * `evaluate`: runs a task on every case of a dataset, `trials` times, with a
 * concurrency limit, scores each trial and summarises per case and scorer.
 * @module
 */
import pLimit from 'p-limit';
import { errorMessage } from '../core/errors.js';
import type { TandemEvent } from '../core/events.js';
import { type Clock, systemClock } from '../core/seams.js';
import { addUsage, emptyUsage } from '../core/usage.js';
import type { Dataset } from './dataset.js';
import { caseScores, summarize } from './stats.js';
import { type EvalTask, isTaskOutput, type TaskContext } from './task.js';
import type { CaseResult, EvalCase, EvalResults, Score, Scorer, TrialResult } from './types.js';

/** Options of {@link evaluate}. */
export interface EvaluateOptions<I, O, E> {
  /** Shown in reports. Default the dataset's name. */
  name?: string;
  dataset: Dataset<I, E>;
  task: EvalTask<I, O, E>;
  scorers: Scorer<I, O, E>[];
  /** Trials running at once. Default 4. */
  concurrency?: number;
  /** Runs of each case; pass@k and variance are over them. Default 1. */
  trials?: number;
  /** Aborts the evaluation: running trials get the signal, cases that finished are kept. */
  signal?: AbortSignal;
  /** Time for latencies (a `FakeClock` in tests). Default the system clock. */
  runtime?: { clock?: Clock };
  /** Called as each case finishes (all its trials scored), e.g. to write it to disk or show progress. */
  onCase?: (result: CaseResult, progress: { done: number; total: number }) => void | Promise<void>;
}

/** Scores one trial's record with every scorer; the case and signal come from the trial's task context. */
async function scoreTrial<I, O, E>(
  scorers: Scorer<I, O, E>[],
  context: TaskContext<I, E>,
  trial: Omit<TrialResult, 'scores'>,
): Promise<Record<string, Score>> {
  const { case: c, signal } = context;
  const scores: Record<string, Score> = {};
  for (const scorer of scorers) {
    try {
      const input = {
        case: c,
        output: trial.output as O,
        events: trial.events,
        latencyMs: trial.latencyMs,
        signal,
      };
      const s = await scorer.score({
        ...input,
        ...(trial.usage && { usage: trial.usage }),
        ...(trial.error && { error: trial.error }),
      });
      scores[scorer.name] = { ...s, score: Math.min(1, Math.max(0, s.score)) };
    } catch (error) {
      scores[scorer.name] = { score: 0, reason: `scorer failed: ${errorMessage(error)}` };
    }
  }
  return scores;
}

/** Runs one trial (the `context` the task is given) and scores it; undefined when aborted. */
async function runTrial<I, O, E>(
  options: EvaluateOptions<I, O, E>,
  context: TaskContext<I, E>,
): Promise<TrialResult | undefined> {
  const { case: c, signal } = context;
  if (signal.aborted) return undefined;
  const clock = options.runtime?.clock ?? systemClock;
  const started = clock.now();
  let record: Omit<TrialResult, 'scores'>;
  try {
    const value = await options.task(c.input, context);
    const latencyMs = clock.now() - started;
    if (isTaskOutput(value)) {
      record = { output: value.output, latencyMs, events: (value.events ?? []) as TandemEvent[] };
      if (value.usage) record.usage = value.usage;
      if (value.status) record.status = value.status;
      if (value.error) record.error = value.error;
    } else record = { output: value, latencyMs, events: [] };
  } catch (error) {
    const latencyMs = clock.now() - started;
    const kind = (error as { kind?: unknown })?.kind;
    record = {
      output: undefined,
      latencyMs,
      events: [],
      status: 'failed',
      error: { kind: typeof kind === 'string' ? kind : 'exception', message: errorMessage(error) },
    };
  }
  // A trial cut short by the abort measured nothing: its case is dropped.
  if (signal.aborted) return undefined;
  return { ...record, scores: await scoreTrial(options.scorers, context, record) };
}

/**
 * Runs `task` on every case of `dataset` `trials` times, at most
 * `concurrency` trials at once, and scores each trial with every scorer.
 * Resolves with the results of the cases that finished; after an abort
 * `aborted` is true and unfinished cases are left out (never a rejection).
 */
export async function evaluate<I, O, E>(options: EvaluateOptions<I, O, E>): Promise<EvalResults> {
  const { dataset, scorers } = options;
  const trials = Math.max(1, options.trials ?? 1);
  const clock = options.runtime?.clock ?? systemClock;
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  const limit = pLimit(Math.max(1, options.concurrency ?? 4));
  const thresholds = Object.fromEntries(scorers.map((s) => [s.name, s.threshold ?? 1]));
  const startedAt = clock.now();
  const finished: CaseResult[] = [];
  const runCase = async (c: EvalCase<I, E>): Promise<void> => {
    const runs = Array.from({ length: trials }, (_, t) =>
      limit(() => runTrial(options, { case: c, trial: t, signal: controller.signal })),
    );
    const results = (await Promise.all(runs)).filter((t) => t !== undefined);
    if (results.length < trials) return;
    const result: CaseResult = {
      id: c.id!,
      input: c.input,
      trials: results,
      scores: caseScores(results, thresholds),
    };
    if (c.expected !== undefined) result.expected = c.expected;
    if (c.metadata) result.metadata = c.metadata;
    finished.push(result);
    await options.onCase?.(result, { done: finished.length, total: dataset.cases.length });
  };
  try {
    await Promise.all(dataset.cases.map(runCase));
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  const order = new Map(dataset.cases.map((c, i) => [c.id!, i]));
  finished.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return {
    name: options.name ?? dataset.name,
    dataset: { name: dataset.name, hash: dataset.hash, size: dataset.cases.length },
    trials,
    startedAt,
    durationMs: clock.now() - startedAt,
    aborted: controller.signal.aborted,
    cases: finished,
    summary: summarize(
      finished,
      scorers.map((s) => s.name),
    ),
    usage: totalUsage(finished),
  };
}

/** The usage of every trial and every scorer (a judge's tokens) together. */
function totalUsage(cases: readonly CaseResult[]) {
  const total = emptyUsage();
  for (const c of cases)
    for (const t of c.trials) {
      addUsage(total, t.usage);
      for (const s of Object.values(t.scores)) addUsage(total, s.usage);
    }
  return total;
}
