/**
 * Tasks: what an evaluation runs on each case. Any function of the input
 * will do; {@link agentTask} wraps an Executor or an Orchestrator so each
 * trial also records the run's events, usage, status and error.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { Usage } from '../core/usage.js';
import type { EvalCase, TaskOutput } from './types.js';

/** What a task is given besides the case's input. */
export interface TaskContext<I = unknown, E = unknown> {
  case: EvalCase<I, E>;
  /** 0-based trial number. */
  trial: number;
  /** Aborts when the evaluation is aborted. */
  signal: AbortSignal;
}

/** A task: a plain value or a {@link TaskOutput} (from {@link agentTask}) per input. */
export type EvalTask<I = any, O = any, E = any> = (
  input: I,
  context: TaskContext<I, E>,
) => O | TaskOutput<O> | Promise<O | TaskOutput<O>>;

/** The part of a run handle a task reads: its events and its result. */
interface RunLike {
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  readonly result: Promise<{
    output: string;
    status: string;
    usage: Usage;
    error?: { kind: string; message: string } | undefined;
    object?: unknown;
  }>;
}

/** An Executor, an Orchestrator, or anything with their `run`. */
export interface RunnableAgent<I> {
  run(input: I, options?: { signal?: AbortSignal }): RunLike;
}

const TASK_OUTPUT = Symbol.for('tandem.evals.taskOutput');

/** Marks a {@link TaskOutput} so `evaluate` tells it from a plain value that happens to have an `output` field. */
export function taskOutput<O>(output: TaskOutput<O>): TaskOutput<O> {
  Object.defineProperty(output, TASK_OUTPUT, { value: true });
  return output;
}

/** Whether `value` came from {@link taskOutput}. */
export function isTaskOutput(value: unknown): value is TaskOutput {
  return typeof value === 'object' && value !== null && TASK_OUTPUT in value;
}

/** Options of {@link agentTask}. */
export interface AgentTaskOptions<I> {
  /** Makes the agent's input from the case's input (default: the input itself). */
  prompt?: (input: I) => unknown;
  /** The structured `object` of the result as the output, instead of the text `output`. */
  useObject?: boolean;
}

/**
 * A task that runs `agent` (an Executor or Orchestrator, or one made per case
 * by a function) on each input and records its event trace, usage, status and
 * error. The evaluation's signal aborts the run.
 */
export function agentTask<I = string>(
  agent: RunnableAgent<any> | ((input: I) => RunnableAgent<any>),
  options: AgentTaskOptions<I> = {},
): EvalTask<I, unknown> {
  return async (input, { signal }) => {
    const runner = typeof agent === 'function' ? agent(input) : agent;
    const run = runner.run(options.prompt ? options.prompt(input) : input, { signal });
    const events: TandemEvent[] = [];
    run.on('*', (event) => events.push(event));
    const result = await run.result;
    const out: TaskOutput = {
      output: options.useObject ? result.object : result.output,
      events,
      usage: result.usage,
      status: result.status,
    };
    if (result.error) out.error = { kind: result.error.kind, message: result.error.message };
    return taskOutput(out);
  };
}
