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
import type { Tool } from '../../tools/types.js';
import type { ExecutorOptions, ExecutorResult } from '../executor/index.js';
import type { AgentProfile, AgentRegistry } from './agent-profiles.js';
import type { ArtifactTransfer } from './artifacts.js';
import type { HandoffRecord, HandoffSession } from './session-rules.js';

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
  /** Advanced: how an agent's model is called. Default: the resilient invoker with the seeds' retry numbers. */
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
