/**
 * The executor an agent of a handoff run works with: the agent's profile
 * (model or tier, instructions, tools, limits), its `handoff_to_<target>`
 * tools, and a `prepareRequest` hook that stops the agent before its next
 * model call once it has handed off — with an internal signal that never
 * leaves the manager.
 * @module
 */
import { ConfigError, TandemError } from '../../core/errors.js';
import type { Runtime } from '../../core/seams.js';
import { addUsage, type Usage } from '../../core/usage.js';
import type { ModelInvoker } from '../../model/invoke.js';
import { invokerFactory } from '../../model/resilience/invoker-options.js';
import type { ChatModel } from '../../model/types.js';
import { ToolRegistry } from '../../tools/registry.js';
import { Executor } from '../executor/index.js';
import type { AgentProfile } from './agent-profiles.js';
import type { HandoffManagerOptions } from './options.js';
import type { HandoffSession } from './session-rules.js';
import { handoffToolFamily } from './tools.js';

/** Stops a source agent after its handoff turn; caught by the manager. */
class HandoffTransfer extends TandemError<'handoff'> {
  static override readonly brand: string = 'HandoffTransfer';
}

/** The executor of `profile` in `session`; every model call's usage is added into `usage`. */
export function agentExecutor(
  options: HandoffManagerOptions,
  runtime: Runtime,
  profile: AgentProfile,
  session: HandoffSession,
  usage: Usage,
): Executor {
  const model = modelOf(options, profile);
  const targets = (profile.handoffs ?? []).map((name) => options.agents.require(name));
  const userPrepare = options.executor?.prepareRequest;
  const tools = new ToolRegistry([...(profile.tools ?? []), ...(options.tools?.(profile) ?? [])]);
  tools.registerFamily(handoffToolFamily(session, profile.name, targets));
  return new Executor({
    ...options.executor,
    model,
    invoker: () => countingInvoker(invokerFactory(options, runtime)(model), usage),
    tools,
    instructions: profile.instructions,
    name: profile.name,
    tier: profile.tier,
    maxIterations: profile.maxIterations,
    temperature: profile.temperature,
    sandbox: profile.sandbox,
    runtime,
    prepareRequest: (request, info) => {
      if (session.pending) throw new HandoffTransfer('handoff', `handed off to ${session.pending.to}`);
      return userPrepare ? userPrepare(request, info) : request;
    },
  });
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
