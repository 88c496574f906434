/**
 * The `HandoffManager`: runs an agent from its profile with its
 * `handoff_to_<target>` tools, and carries out the handoffs it asks for
 * (seed 003, fixing B11 and B17) until an agent answers.
 *
 * How a handoff ends the source agent: the handoff tool records the accepted
 * handoff in the run's {@link HandoffSession} and answers "handed off". The
 * turn finishes normally — every tool call of it gets its result and its
 * events — and before the source's next model call the manager's
 * `prepareRequest` hook (`agent-executor.ts`) stops the execution with an
 * internal signal that never leaves the manager. No model call is made after
 * the handoff, no tool is aborted, and the caller's abort keeps its meaning.
 * @module
 */
import { SharedMemory } from '../../context/shared-memory.js';
import { ConfigError, errorMessage, isAbortError } from '../../core/errors.js';
import { EventBus } from '../../core/event-bus.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import { type ExecutorResult, executeOn } from '../executor/index.js';
import { agentExecutor, modelOf } from './agent-executor.js';
import { moveArtifacts } from './artifacts.js';
import type { HandoffManagerOptions, HandoffRunOptions, HandoffRunResult } from './options.js';
import { DEFAULT_MAX_HANDOFFS, HandoffSession } from './session-rules.js';
import { buildHandoffInput } from './target-input.js';

/**
 * Runs agents and the handoffs between them.
 *
 * ```ts
 * const manager = new HandoffManager({ agents, model });
 * const { output, agent, handoffs } = await manager.run('chat', 'Compare the top 3 vector databases', { emit, memory });
 * ```
 */
export class HandoffManager {
  private readonly options: HandoffManagerOptions;
  private readonly runtime: Runtime;
  private readonly maxHandoffs: number;

  /** @throws ConfigError for unknown handoff targets, an agent without a model, or a bad `maxHandoffs`. */
  constructor(options: HandoffManagerOptions) {
    this.options = options;
    this.runtime = resolveRuntime(options.runtime);
    this.maxHandoffs = options.maxHandoffs ?? DEFAULT_MAX_HANDOFFS;
    if (!Number.isInteger(this.maxHandoffs) || this.maxHandoffs < 0) {
      throw new ConfigError(`HandoffManager: maxHandoffs must be an integer ≥ 0, got ${this.maxHandoffs}`);
    }
    options.agents.validate();
    for (const profile of options.agents.list()) modelOf(options, profile);
  }

  /** Whether `agent` is one of the manager's agents. */
  has(agent: string): boolean {
    return this.options.agents.has(agent);
  }

  /** A fresh session whose first agent is `agent`. */
  session(agent: string): HandoffSession {
    this.options.agents.require(agent);
    return new HandoffSession(
      agent,
      (name) => this.options.agents.targetsOf(name),
      this.maxHandoffs,
      this.runtime.clock,
    );
  }

  /**
   * Runs `agentName` on `task`; when it hands off, runs the target on the
   * delegated task plus context, artifacts and shared memory, and so on until
   * an agent answers. Emits `stage` (name `agent`, one per agent) and
   * `handoff` events. Failures of the final agent are thrown as the executor
   * throws them. An agent whose approvals pause it ends the run with its
   * `interrupted` result; `resume` continues its conversation.
   * @throws ConfigError for an unknown agent.
   */
  async run(agentName: string, task: string, options: HandoffRunOptions = {}): Promise<HandoffRunResult> {
    const session = options.session ?? this.session(agentName);
    if (session.active !== agentName) {
      throw new ConfigError(
        `HandoffManager: the session's active agent is "${session.active}", not "${agentName}"`,
      );
    }
    const emit =
      options.emit ??
      new EventBus({
        runId: this.runtime.ids.next('run'),
        clock: this.runtime.clock,
        tracing: this.runtime.tracing,
      });
    const signal = options.signal ?? new AbortController().signal;
    const usage = emptyUsage();
    let profile = this.options.agents.require(agentName);
    let input = task;
    let history = options.history;
    let resume = options.resume;
    const { approvals, pauseOnInterrupt, onCheckpoint } = options;
    const memory = options.memory ?? new SharedMemory();
    for (;;) {
      const scoped = emit.scope({ agent: profile.name });
      scoped.emit('stage', { name: 'agent', status: 'running', detail: profile.name });
      const agent = { profile, session, usage, memory, run: { approvals, pauseOnInterrupt } };
      const executor = agentExecutor(this.options, this.runtime, agent);
      const name = profile.name;
      const result = await executeOn(executor, resume ? [] : input, {
        emit,
        signal,
        history: resume ? [...resume] : history,
        stepId: options.stepId,
        ...(onCheckpoint && { onCheckpoint: (messages) => onCheckpoint(name, messages) }),
      });
      resume = undefined;
      // The execution a handoff stopped ends failed by design; any other failure is the run's.
      const failure = result.status === 'failed' ? result.error : undefined;
      if (failure && !(session.pending && !signal.aborted && !isAbortError(failure))) {
        scoped.emit('stage', { name: 'agent', status: 'failed', detail: errorMessage(failure) });
        throw failure;
      }
      const handoff = session.take();
      if (!handoff) {
        scoped.emit('stage', { name: 'agent', status: 'completed', detail: profile.name });
        return this.finish(profile.name, result, { session, usage, memory });
      }
      scoped.emit('stage', { name: 'agent', status: 'completed', detail: `handed off to ${handoff.to}` });
      const target = this.options.agents.require(handoff.to);
      const move = { from: profile, to: target };
      const moved = await moveArtifacts(this.options.transferArtifacts, move, { signal, emit: scoped });
      input = buildHandoffInput({ ...handoff, ...moved, memory });
      history = undefined;
      profile = target;
    }
  }

  /** The run's result: `agent` answered with `result`; `run` holds the session and what the agents shared. */
  private finish(
    agent: string,
    result: ExecutorResult,
    run: { session: HandoffSession; usage: Usage; memory: SharedMemory },
  ): HandoffRunResult {
    const { session } = run;
    return {
      output: result.output,
      agent,
      result,
      handoffs: session.history.slice(),
      visited: [...session.visited],
      summary: session.summary(),
      usage: run.usage,
      memory: run.memory,
    };
  }
}
