/**
 * The executor an agent of a handoff run works with: the agent's profile
 * (model or tier, instructions, tools, limits), its `handoff_to_<target>`
 * tools, and a `prepareRequest` hook that stops the agent before its next
 * model call once it has handed off — with an internal signal that never
 * leaves the manager.
 * @module
 */
import type { SharedMemory } from '../../context/shared-memory.js';
import { ConfigError, TandemError } from '../../core/errors.js';
import type { Runtime } from '../../core/seams.js';
import { addUsage, type Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import { invokerFactory } from '../../model/resilience/invoker-options.js';
import type { ChatModel } from '../../model/types.js';
import type { ApprovalGate } from '../../safety/approvals/approval-gate.js';
import { ToolRegistry } from '../../tools/registry.js';
import { Executor, mergeExecutorOptions } from '../executor/index.js';
import { type AgentProfile, TIER_MAX_ITERATIONS } from './agent-profiles.js';
import type { HandoffManagerOptions, HandoffRunOptions } from './options.js';
import type { HandoffSession } from './session-rules.js';
import { handoffToolFamily } from './tools.js';

/** Stops a source agent after its handoff turn; caught by the manager. */
class HandoffTransfer extends TandemError<'handoff'> {
  static override readonly brand: string = 'HandoffTransfer';
}

/** One agent's turn in a handoff run. */
export interface AgentRun {
  profile: AgentProfile;
  session: HandoffSession;
  /** Every model call's usage is added into it. */
  usage: Usage;
  /** The run's approvals and whether they are deferred (see `HandoffRunOptions`). */
  run: Pick<HandoffRunOptions, 'approvals' | 'pauseOnInterrupt'>;
  /** The run's shared memory, given to the agent's extra tools. */
  memory: SharedMemory;
}

/** The executor of `agent.profile` in `agent.session`. */
export function agentExecutor(options: HandoffManagerOptions, runtime: Runtime, agent: AgentRun): Executor {
  const { profile, session, usage, run, memory } = agent;
  const model = modelOf(options, profile);
  const targets = (profile.handoffs ?? []).map((name) => options.agents.require(name));
  const userPrepare = options.executor?.context?.prepareRequest;
  const tools = new ToolRegistry([...(profile.tools ?? []), ...(options.tools?.(profile, { memory }) ?? [])]);
  tools.registerFamily(handoffToolFamily(session, profile.name, targets));
  const maxIterations = profile.maxIterations ?? (profile.tier && TIER_MAX_ITERATIONS[profile.tier]);
  return new Executor(
    mergeExecutorOptions<undefined>(options.executor, {
      model,
      resilience: { invoker: () => countingInvoker(invokerFactory(options, runtime)(model), usage) },
      tools,
      instructions: profile.instructions,
      name: profile.name,
      sandbox: profile.sandbox,
      runtime,
      modelSettings: { temperature: profile.temperature },
      limits: { maxIterations },
      safety: runSafety(options, run),
      context: {
        prepareRequest: (request, info) => {
          if (session.pending) throw new HandoffTransfer('handoff', `handed off to ${session.pending.to}`);
          return userPrepare ? userPrepare(request, info) : request;
        },
      },
    }),
  );
}

/**
 * The model of `profile`: its own, else its tier's of `models`, else `model`.
 * @throws ConfigError when there is none.
 */
export function modelOf(options: HandoffManagerOptions, profile: AgentProfile): ChatModel {
  const { model, models } = options;
  const chosen = profile.model ?? (profile.tier && models ? models.get(profile.tier) : undefined) ?? model;
  if (!chosen) {
    throw new ConfigError(
      `HandoffManager: agent "${profile.name}" has no model (give it a model, a tier with \`models\`, or set \`model\`)`,
    );
  }
  return chosen;
}

/** The invoker, adding every call's usage into `usage` (usage of stopped agents included). */
function countingInvoker(inner: ModelInvoker, usage: Usage): ModelInvoker {
  return {
    id: inner.id,
    model: inner.model,
    models: inner.models,
    async invoke(request, options) {
      const response = await inner.invoke(request, options);
      addUsage(usage, response.usage);
      return response;
    },
  };
}

/**
 * The run's approvals (an orchestrator's, where its resume delivers the
 * answers), unless the manager's agents have a gate of their own: that one
 * keeps its threshold and its bus.
 */
function runSafety(
  options: HandoffManagerOptions,
  run: AgentRun['run'],
): { approvals?: ApprovalGate; pauseOnInterrupt?: boolean } {
  const approvals = options.executor?.safety?.approvals ? undefined : run.approvals;
  return { approvals, pauseOnInterrupt: run.pauseOnInterrupt };
}
