/**
 * `tandem-eval`: `run` an eval module and write its results, `compare` two
 * results files; both exit non-zero when a threshold is crossed, so CI can
 * gate on them. Ctrl-C aborts a run and keeps the cases that finished.
 * @module
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { errorMessage, TandemError } from '../core/errors.js';
import type { Dataset } from './dataset.js';
import { evaluate } from './evaluate.js';
import { consoleProgress, type ProgressStream } from './progress.js';
import { type CompareThresholds, compare } from './report/compare.js';
import { htmlReport } from './report/html.js';
import { markdownComparison, markdownSummary } from './report/markdown.js';
import type { EvalTask } from './task.js';
import type { EvalResults, Scorer } from './types.js';

/** What an eval module default-exports for `tandem-eval run`. */
export interface EvalConfig<I = any, O = any, E = any> {
  name?: string;
  dataset: Dataset<I, E> | Promise<Dataset<I, E>> | (() => Promise<Dataset<I, E>>);
  task: EvalTask<I, O, E>;
  scorers: Scorer<I, O, E>[];
  concurrency?: number;
  trials?: number;
}

/** Types an eval module's default export. */
export function defineEval<I, O, E>(config: EvalConfig<I, O, E>): EvalConfig<I, O, E> {
  return config;
}

/** Thrown for a command line the CLI cannot act on (exit code 2). */
export class EvalCliError extends TandemError<'usage'> {
  static override readonly brand: string = 'EvalCliError';
  constructor(message: string) {
    super('usage', message);
  }
}

/** Where the CLI writes, and what aborts it. */
export interface EvalCliOptions {
  stdout?: ProgressStream;
  stderr?: ProgressStream;
  /** Aborts a run. Default: SIGINT (Ctrl-C) for as long as the command runs. */
  signal?: AbortSignal;
}

const USAGE = `usage:
  tandem-eval run <eval-module> [--out dir] [--concurrency n] [--trials n] [--baseline results.json] [thresholds]
  tandem-eval compare <baseline.json> <current.json> [thresholds]
thresholds: --max-score-drop n (default 0)  --max-case-drop n  --min-pass-rate n
exit codes: 0 passed, 1 a threshold was crossed, 2 usage or load error, 130 aborted`;

const OPTIONS = {
  out: { type: 'string' },
  concurrency: { type: 'string' },
  trials: { type: 'string' },
  baseline: { type: 'string' },
  'max-score-drop': { type: 'string' },
  'max-case-drop': { type: 'string' },
  'min-pass-rate': { type: 'string' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: string };

function numberOf(values: Values, key: keyof Values): number | undefined {
  const raw = values[key];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new EvalCliError(`--${key} takes a number, got ${JSON.stringify(raw)}`);
  return n;
}

function thresholdsOf(values: Values): CompareThresholds {
  const out: CompareThresholds = {};
  const drop = numberOf(values, 'max-score-drop');
  const caseDrop = numberOf(values, 'max-case-drop');
  const rate = numberOf(values, 'min-pass-rate');
  if (drop !== undefined) out.maxScoreDrop = drop;
  if (caseDrop !== undefined) out.maxCaseDrop = caseDrop;
  if (rate !== undefined) out.minPassRate = rate;
  return out;
}

async function readResults(path: string): Promise<EvalResults> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as EvalResults;
  } catch (error) {
    throw new EvalCliError(`Cannot read results ${path}: ${errorMessage(error)}`);
  }
}

async function loadConfig(path: string): Promise<EvalConfig> {
  const module = (await import(pathToFileURL(resolve(path)).href)) as { default?: EvalConfig };
  const config = module.default;
  if (!config?.task || !config.dataset || !Array.isArray(config.scorers))
    throw new EvalCliError(`${path} must default-export { dataset, task, scorers } (see defineEval)`);
  return config;
}

async function runCommand(file: string, values: Values, io: Required<EvalCliOptions>): Promise<number> {
  const config = await loadConfig(file);
  const dataset = await (typeof config.dataset === 'function' ? config.dataset() : config.dataset);
  const out = resolve(values.out ?? 'eval-results');
  await mkdir(out, { recursive: true });
  const casesFile = join(out, 'cases.jsonl');
  await writeFile(casesFile, '');
  const progress = consoleProgress(io.stderr);
  const results = await evaluate({
    ...(config.name && { name: config.name }),
    dataset,
    task: config.task,
    scorers: config.scorers,
    concurrency: numberOf(values, 'concurrency') ?? config.concurrency ?? 4,
    trials: numberOf(values, 'trials') ?? config.trials ?? 1,
    signal: io.signal,
    // Written as each case finishes, so a crash or a kill keeps them too.
    onCase: async (result, p) => {
      await appendFile(casesFile, `${JSON.stringify(result)}\n`);
      progress(result, p);
    },
  });
  await writeFile(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(out, 'summary.md'), markdownSummary(results));
  await writeFile(join(out, 'report.html'), htmlReport(results));
  io.stdout.write(markdownSummary(results));
  io.stdout.write(`\nresults in ${out}\n`);
  if (results.aborted) return 130;
  if (!values.baseline) return 0;
  const comparison = compare(await readResults(values.baseline), results, {
    thresholds: thresholdsOf(values),
  });
  io.stdout.write(`\n${markdownComparison(comparison)}`);
  return comparison.passed ? 0 : 1;
}

async function dispatch(argv: string[], io: Required<EvalCliOptions>): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, ...rest] = positionals;
  if (command === 'run' && rest.length === 1) return runCommand(rest[0]!, values, io);
  if (command === 'compare' && rest.length === 2) {
    const [base, now] = await Promise.all([readResults(rest[0]!), readResults(rest[1]!)]);
    const comparison = compare(base, now, { thresholds: thresholdsOf(values) });
    io.stdout.write(markdownComparison(comparison));
    return comparison.passed ? 0 : 1;
  }
  throw new EvalCliError(USAGE);
}

/**
 * The `tandem-eval` command line: resolves with the exit code. Without a
 * `signal`, SIGINT aborts the run for as long as it lasts (finished cases are
 * kept and written; exit code 130).
 */
export async function runEval(
  argv: string[] = process.argv.slice(2),
  options: EvalCliOptions = {},
): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted (SIGINT)'));
  if (!options.signal) process.once('SIGINT', onSigint);
  const io = {
    stdout: options.stdout ?? process.stdout,
    stderr: options.stderr ?? process.stderr,
    signal: options.signal ?? controller.signal,
  };
  try {
    return await dispatch(argv, io);
  } catch (error) {
    io.stderr.write(`tandem-eval: ${errorMessage(error)}\n`);
    return 2;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
