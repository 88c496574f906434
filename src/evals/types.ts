/**
 * The shapes an evaluation passes around: cases, what a task records, scores
 * and results. Plain data throughout, so results serialise as JSON and a
 * baseline read back from disk compares with a fresh run.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { Usage } from '../core/usage.js';

/** One case of a dataset: the task's input, what it should give, anything else worth keeping. */
export interface EvalCase<I = unknown, E = unknown> {
  /** Stable id, used to pair cases across runs by `compare`. Default: the case's index as a string. */
  id?: string;
  input: I;
  expected?: E;
  metadata?: Record<string, unknown>;
}

/** What a task records about one trial; a plain function's return value becomes `output` alone. */
export interface TaskOutput<O = unknown> {
  output: O;
  /** The run's events, in order (what trajectory and plan scorers read). */
  events?: TandemEvent[];
  usage?: Usage;
  /** Status of an agent run (`success`, `partial`, `failed`, `interrupted`). */
  status?: string;
  /** Why the agent run did not succeed. */
  error?: { kind: string; message: string };
}

/** A score: 0 (worst) to 1 (best), and why. */
export interface Score {
  score: number;
  reason: string;
  /** What scoring itself spent (an LLM judge's tokens and cost). */
  usage?: Usage;
}

/** Everything a scorer sees about one trial. */
export interface ScorerInput<I = unknown, O = unknown, E = unknown> {
  case: EvalCase<I, E>;
  output: O;
  events: readonly TandemEvent[];
  usage?: Usage;
  latencyMs: number;
  error?: { kind: string; message: string };
  signal?: AbortSignal;
}

/** A named scorer. A case passes a scorer when its score reaches `threshold` (default 1). */
export interface Scorer<I = any, O = any, E = any> {
  name: string;
  threshold?: number;
  score(input: ScorerInput<I, O, E>): Score | Promise<Score>;
}

/** One run of the task on a case. */
export interface TrialResult {
  output: unknown;
  latencyMs: number;
  usage?: Usage;
  status?: string;
  error?: { kind: string; message: string };
  events: TandemEvent[];
  scores: Record<string, Score>;
}

/** Per scorer over a case's trials: mean, variance, and pass@k (k = trials). */
export interface CaseScore {
  mean: number;
  variance: number;
  /** Trials whose score reached the scorer's threshold. */
  passes: number;
  /** 1 when at least one of the k trials passed (the unbiased estimator with n = k). */
  passAtK: number;
}

/** One case's outcome over its trials. */
export interface CaseResult {
  id: string;
  input: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown>;
  trials: TrialResult[];
  scores: Record<string, CaseScore>;
}

/** Per scorer over the whole run: the mean of case means, and the share of cases that passed at k. */
export interface ScorerSummary {
  mean: number;
  passRate: number;
}

/** The results of {@link evaluate}, as JSON. */
export interface EvalResults {
  name: string;
  dataset: { name: string; hash: string; size: number };
  trials: number;
  startedAt: number;
  durationMs: number;
  /** True when the run was aborted: `cases` holds only the cases that finished. */
  aborted: boolean;
  cases: CaseResult[];
  summary: Record<string, ScorerSummary>;
  usage: Usage;
}
