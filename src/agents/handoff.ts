/**
 * The `HandoffManager`: runs an agent from its profile with its
 * `handoff_to_<target>` tools, and carries out the handoffs it asks for
 * (seed 003, fixing B11 and B17) until an agent answers.
 *
 * How a handoff ends the source agent: the handoff tool records the accepted
 * handoff in the run's {@link HandoffSession} and answers "handed off". The
 * turn finishes normally — every tool call of it gets its result and its
 * events — and before the source's next model call the manager's
 * `prepareRequest` hook stops the execution with an internal signal that never
 * leaves the manager. No model call is made after the handoff, no tool is
 * aborted, and the caller's abort keeps its meaning.
 * @module
 */
import type { SharedMemory } from '../context/shared-memory.js';
import { ConfigError, errorMessage, isAbortError, TandemError } from '../core/errors.js';
import { EventBus } from '../core/event-bus.js';
import type { Emitter } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { type Runtime, resolveRuntime } from '../core/seams.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { directInvoker, type ModelInvoker } from '../model/invoke.js';
import type { ModelTiers } from '../model/resilience/tiers.js';
import type { ChatModel } from '../model/types.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { AgentProfile, AgentRegistry } from './agent-profile.js';
import { Executor } from './executor.js';
import type { ExecutorOptions, ExecutorResult } from './executor-options.js';
import { type ArtifactTransfer, moveArtifacts } from './handoff-artifacts.js';
import { buildHandoffInput } from './handoff-input.js';
import { DEFAULT_MAX_HANDOFFS, type HandoffRecord, HandoffSession } from './handoff-session.js';
import { handoffToolFamily } from './handoff-tools.js';

/** Executor options every agent of the manager shares. */
export type SharedExecutorOptions = Pick<
  ExecutorOptions,
  | 'gate'
  | 'prepareRequest'
  | 'stream'
  | 'timeoutMs'
  | 'toolConcurrency'
  | 'toolLimiter'
  | 'maxOutputChars'
  | 'outputFilter'
>;

/** Options of a {@link HandoffManager}. */
export interface HandoffManagerOptions {
  /** The agents; their `handoffs` form the allowed-target matrix. */
  agents: AgentRegistry;
  /** Model of agents that name neither a model nor a tier present in `models`. */
  model?: ChatModel;
  /** Models by tier, for agents that name a `tier`. */
  models?: ModelTiers;
  /** How an agent's model is called (retry, fallback). Default `directInvoker`. */
  invoker?: (model: ChatModel) => ModelInvoker;
  /** Accepted handoffs per run. Default 3. */
  maxHandoffs?: number;
  /** Moves artifacts when both agents of a handoff have a sandbox. */
  transferArtifacts?: ArtifactTransfer;
  /** Extra tools of an agent, e.g. its skills' `invoke_skill` / `list_skills`. */
  tools?: (profile: AgentProfile) => readonly Tool[];
  /** Executor options for every agent. */
  executor?: SharedExecutorOptions;
  runtime?: Partial<Runtime>;
}

/** Options of one {@link HandoffManager.run}. */
export interface HandoffRunOptions {
  signal?: AbortSignal;
  /** Where events go. Default: a fresh bus nobody listens to. */
  emit?: Emitter;
  /** Rendered into every handoff target's input. */
  memory?: SharedMemory;
  /** Earlier conversation, given to the first agent only. */
  history?: Message[];
  stepId?: string;
  /** Continue an existing session (its active agent must be the one run). */
  session?: HandoffSession;
}

/** The outcome of a {@link HandoffManager.run}. */
export interface HandoffRunResult {
  /** The final agent's answer. */
  output: string;
  /** The agent that answered. */
  agent: string;
  /** The final agent's execution. */
  result: ExecutorResult;
  /** Every handoff request, accepted or refused. */
  handoffs: HandoffRecord[];
  /** The agents that worked on the run, in order. */
  visited: string[];
  /** {@link HandoffSession.summary} of the run. */
  summary: string;
  /** Usage of every agent of the run. */
  usage: Usage;
}

/** Stops a source agent after its handoff turn; caught by the manager. */
class HandoffTransfer extends TandemError<'handoff'> {
  static override readonly brand: string = 'HandoffTransfer';
}

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
    for (const profile of options.agents.list()) this.modelOf(profile);
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
   * throws them.
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
      options.emit ?? new EventBus({ runId: this.runtime.ids.next('run'), clock: this.runtime.clock });
    const signal = options.signal ?? new AbortController().signal;
    const usage = emptyUsage();
    let profile = this.options.agents.require(agentName);
    let input = task;
    let history = options.history;
    for (;;) {
      const scoped = emit.scope({ agent: profile.name });
      scoped.emit('stage', { name: 'agent', status: 'running', detail: profile.name });
      let result: ExecutorResult | undefined;
      try {
        result = await this.executorFor(profile, session, usage).execute(input, {
          emit,
          signal,
          history,
          stepId: options.stepId,
        });
      } catch (error) {
        if (!(session.pending && !signal.aborted && !isAbortError(error))) {
          scoped.emit('stage', { name: 'agent', status: 'failed', detail: errorMessage(error) });
          throw error;
        }
      }
      const handoff = session.take();
      if (!handoff) {
        scoped.emit('stage', { name: 'agent', status: 'completed', detail: profile.name });
        return this.finish(profile.name, result!, session, usage);
      }
      scoped.emit('stage', { name: 'agent', status: 'completed', detail: `handed off to ${handoff.to}` });
      const target = this.options.agents.require(handoff.to);
      const moved = await moveArtifacts(this.options.transferArtifacts, profile, target, signal, scoped);
      input = buildHandoffInput({ ...handoff, ...moved, memory: options.memory });
      history = undefined;
      profile = target;
    }
  }

  private executorFor(profile: AgentProfile, session: HandoffSession, usage: Usage): Executor {
    const { options } = this;
    const model = this.modelOf(profile);
    const targets = (profile.handoffs ?? []).map((name) => this.options.agents.require(name));
    const userPrepare = options.executor?.prepareRequest;
    const tools = new ToolRegistry([...(profile.tools ?? []), ...(options.tools?.(profile) ?? [])]);
    tools.registerFamily(handoffToolFamily(session, profile.name, targets));
    return new Executor({
      ...options.executor,
      model,
      invoker: countingInvoker(options.invoker?.(model) ?? directInvoker(model), usage),
      tools,
      instructions: profile.instructions,
      name: profile.name,
      tier: profile.tier,
      maxIterations: profile.maxIterations,
      temperature: profile.temperature,
      sandbox: profile.sandbox,
      runtime: this.runtime,
      prepareRequest: (request, info) => {
        if (session.pending) throw new HandoffTransfer('handoff', `handed off to ${session.pending.to}`);
        return userPrepare ? userPrepare(request, info) : request;
      },
    });
  }

  private modelOf(profile: AgentProfile): ChatModel {
    const { model, models } = this.options;
    const chosen = profile.model ?? (profile.tier && models ? models.get(profile.tier) : undefined) ?? model;
    if (!chosen) {
      throw new ConfigError(
        `HandoffManager: agent "${profile.name}" has no model (give it a model, a tier with \`models\`, or set \`model\`)`,
      );
    }
    return chosen;
  }

  private finish(
    agent: string,
    result: ExecutorResult,
    session: HandoffSession,
    usage: Usage,
  ): HandoffRunResult {
    return {
      output: result.output,
      agent,
      result,
      handoffs: session.history.slice(),
      visited: [...session.visited],
      summary: session.summary(),
      usage,
    };
  }
}

/** The invoker, adding every call's usage into `usage` (usage of stopped agents included). */
function countingInvoker(inner: ModelInvoker, usage: Usage): ModelInvoker {
  return {
    id: inner.id,
    model: inner.model,
    async invoke(request, options) {
      const response = await inner.invoke(request, options);
      addUsage(usage, response.usage);
      return response;
    },
  };
}
