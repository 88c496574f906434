/**
 * Options and results of the {@link HandoffManager}.
 * @module
 */
import type { SharedMemory } from '../../context/shared-memory.js';
import type { Emitter } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { Runtime } from '../../core/seams.js';
import type { Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import type { ModelTiers } from '../../model/resilience/tiers.js';
import type { ChatModel } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import type { Tool } from '../../tools/types.js';
import type { ExecutorOptions, ExecutorResult } from '../executor/index.js';
import type { AgentProfile, AgentRegistry } from './agent-profiles.js';
import type { ArtifactTransfer } from './artifacts.js';
import type { HandoffRecord, HandoffSession } from './session-rules.js';

/** Executor options every agent of the manager shares: streaming and the concept groups. */
export type SharedExecutorOptions = Pick<
  ExecutorOptions,
  'stream' | 'modelSettings' | 'safety' | 'context' | 'limits'
>;

/** Options of a {@link HandoffManager}. */
export interface HandoffManagerOptions {
  /** The agents; their `handoffs` form the allowed-target matrix. */
  agents: AgentRegistry;
  /** Model of agents that name neither a model nor a tier present in `models`. */
  model?: ChatModel;
  /** Models by tier, for agents that name a `tier`. */
  models?: ModelTiers;
  /** Advanced: how an agent's model is called. Default: the resilient invoker with the seeds' retry numbers. */
  invoker?: (model: ChatModel) => ModelInvoker;
  /** Accepted handoffs per run. Default 3. */
  maxHandoffs?: number;
  /** Moves artifacts when both agents of a handoff have a sandbox. */
  transferArtifacts?: ArtifactTransfer;
  /**
   * Extra tools of an agent, e.g. its skills' `invoke_skill` / `list_skills`;
   * built for each agent of each run, with the run's shared memory for the
   * tools to write findings and artifacts to.
   */
  tools?: (profile: AgentProfile, run: AgentToolsRun) => readonly Tool[];
  /** Executor options for every agent. */
  executor?: SharedExecutorOptions;
  runtime?: Partial<Runtime>;
}

/** What {@link HandoffManagerOptions.tools} is told of the run an agent's tools serve. */
export interface AgentToolsRun {
  /** The run's shared memory: what a tool writes there reaches every later agent of the run. */
  memory: SharedMemory;
}

/** Options of one {@link HandoffManager.run}. */
export interface HandoffRunOptions {
  signal?: AbortSignal;
  /** Where events go. Default: a fresh bus nobody listens to. */
  emit?: Emitter;
  /**
   * The run's shared memory: the agents' tools write to it (see `tools`), and
   * it is rendered into every handoff target's input. Default: a fresh one
   * per run, returned as `result.memory`.
   */
  memory?: SharedMemory;
  /** Earlier conversation, given to the first agent only. */
  history?: Message[];
  stepId?: string;
  /** Continue an existing session (its active agent must be the one run). */
  session?: HandoffSession;
  /**
   * The approvals the agents of this run answer through when the manager
   * gives them none (`executor.safety.approvals`): an orchestrator passes its
   * own, so a handoff agent's approvals pause the run and are answered on
   * its state like those of the orchestrator's own tools.
   */
  approvals?: ApprovalGate;
  /** The agents defer their approvals instead of waiting on a bus (`safety.pauseOnInterrupt`). */
  pauseOnInterrupt?: boolean;
  /** Told the working agent's conversation whenever it is worth saving: what `resume` continues. */
  onCheckpoint?: (agent: string, messages: readonly Message[]) => void | Promise<void>;
  /**
   * The saved conversation of the agent run (its `onCheckpoint`), which a
   * paused run continues instead of starting on the task: calls without a
   * result run first (an answered approval once), then the model goes on.
   */
  resume?: readonly Message[];
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
  /** The run's shared memory, with what its agents wrote. */
  memory: SharedMemory;
}
