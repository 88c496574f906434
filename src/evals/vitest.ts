/**
 * `describeEval`: an evaluation as a vitest suite, beside the tests, run on
 * demand. The only module of tandem that imports vitest (an optional peer),
 * and only when `describeEval` is called: vitest throws when imported outside
 * a test run, and this module must stay importable by any tool.
 * @packageDocumentation
 */
import { type EvaluateOptions, evaluate } from './evaluate.js';
import { markdownSummary } from './report/markdown.js';
import type { EvalResults } from './types.js';

/** Options of {@link describeEval}: those of `evaluate`, and what the suite asserts. */
export interface DescribeEvalOptions<I, O, E> extends Omit<EvaluateOptions<I, O, E>, 'signal'> {
  /** Least mean score per scorer (by name), or for every scorer. Default: each scorer's threshold (1 unless set). */
  minScore?: number | Record<string, number>;
  /**
   * Run the suite; skipped otherwise. Default: when the `TANDEM_EVAL`
   * environment variable is set, so evals cost nothing in the ordinary test run.
   */
  enabled?: boolean;
  /** Test timeout in ms. Default 120 000. */
  timeoutMs?: number;
  /** Receives the results (e.g. to write a report). */
  onResults?: (results: EvalResults) => void | Promise<void>;
}

/**
 * A vitest suite that evaluates `options.task` on `options.dataset` and
 * fails when a scorer's mean falls under its least score; the failure
 * message is the markdown summary. Await it at the top level of a test file
 * (`await describeEval(…)`): the suite is registered while the file is collected.
 */
export async function describeEval<I, O, E>(
  name: string,
  options: DescribeEvalOptions<I, O, E>,
): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  const enabled = options.enabled ?? Boolean(process.env.TANDEM_EVAL);
  describe.skipIf(!enabled)(name, () => {
    it(
      'meets its least scores',
      async () => {
        const results = await evaluate(options);
        await options.onResults?.(results);
        const low = options.scorers.flatMap((s) => {
          const least =
            typeof options.minScore === 'number'
              ? options.minScore
              : (options.minScore?.[s.name] ?? s.threshold ?? 1);
          const mean = results.summary[s.name]?.mean ?? 0;
          return mean < least ? [`${s.name}: mean ${mean} < ${least}`] : [];
        });
        expect(low, `${low.join('; ')}\n\n${markdownSummary(results)}`).toEqual([]);
      },
      options.timeoutMs ?? 120_000,
    );
  });
}
