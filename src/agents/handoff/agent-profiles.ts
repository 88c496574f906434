/**
 * Agents as named profiles (seed 003): instructions, a model or a tier, tools,
 * skills and the agents each may hand off to. The router, explicit modes and
 * handoffs share one {@link AgentRegistry}.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { ModelTier } from '../../model/resilience/tiers.js';
import type { ChatModel } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';

/** A named agent. */
export interface AgentProfile {
  /** Unique name; `handoff_to_<name>` must be a valid tool name (`a-zA-Z0-9_-`, ≤ 53 characters). */
  readonly name: string;
  /** What the agent is for; the router shows it to the routing model. */
  readonly description: string;
  /** Example queries the agent handles; the router's prompt lists them under it. */
  readonly examples?: readonly string[];
  /** The agent's system prompt. */
  readonly instructions: string;
  /** The agent's model. Wins over `tier`. */
  readonly model?: ChatModel;
  /** Which tier of the configured models the agent uses; also sets its default iteration budget. */
  readonly tier?: ModelTier;
  /** Tools the agent may call. */
  readonly tools?: readonly Tool[];
  /** Ids of the skills the agent may invoke (resolved by whoever builds its tools). */
  readonly skills?: readonly string[];
  /** Agents this one may hand off to (the handoff matrix row). */
  readonly handoffs?: readonly string[];
  /** Where the agent's tools run; handoff artifacts move between the agents' sandboxes. */
  readonly sandbox?: Sandbox;
  /** Model turns per execution. Default: by `tier` (flash 3, pro 5, max 10), else the executor's (10). */
  readonly maxIterations?: number;
  readonly temperature?: number;
}

/** An agent's default model turns per execution by its `tier` (the seeds' LITE/PRO/MAX profiles). */
export const TIER_MAX_ITERATIONS: Readonly<Record<ModelTier, number>> = { flash: 3, pro: 5, max: 10 };

/**
 * The seed's handoff matrix (seed 003): chat delegates to every specialist,
 * research to code and data, writing to research, code and data to each other.
 */
export const SEED_HANDOFF_MATRIX: Readonly<Record<string, readonly string[]>> = Object.freeze({
  chat: ['research', 'code', 'writing', 'data'],
  research: ['code', 'data'],
  writing: ['research'],
  code: ['data'],
  data: ['code'],
});

const AGENT_NAME = /^[a-zA-Z0-9_-]{1,53}$/;

/**
 * The agents of an application, by name.
 *
 * ```ts
 * const agents = new AgentRegistry([
 *   { name: 'chat', description: 'General questions', instructions: '…', handoffs: ['research'] },
 *   { name: 'research', description: 'Web research with citations', instructions: '…', tier: 'pro' },
 * ]);
 * agents.get('research');
 * ```
 *
 * Profiles may name each other in any order (code ↔ data), so handoff targets
 * are checked once all are known: by the constructor, {@link AgentRegistry.registerAll}
 * and {@link AgentRegistry.validate}.
 */
export class AgentRegistry {
  private readonly agents = new Map<string, AgentProfile>();

  /** @throws ConfigError for a bad or duplicate name, or a handoff target that is not registered. */
  constructor(profiles: Iterable<AgentProfile> = []) {
    this.registerAll(profiles);
  }

  /**
   * Adds one profile. Its handoff targets are checked by {@link AgentRegistry.validate}.
   * @throws ConfigError for a bad or duplicate name, or a profile that hands off to itself.
   */
  register(profile: AgentProfile): this {
    if (!AGENT_NAME.test(profile.name)) {
      throw new ConfigError(`Agent name "${profile.name}" must match ${AGENT_NAME} (it becomes a tool name)`);
    }
    if (this.agents.has(profile.name)) throw new ConfigError(`Agent "${profile.name}" is already registered`);
    if (profile.handoffs?.includes(profile.name)) {
      throw new ConfigError(`Agent "${profile.name}" cannot hand off to itself`);
    }
    this.agents.set(profile.name, profile);
    return this;
  }

  /**
   * Adds several profiles, then validates the handoff targets.
   * @throws ConfigError as {@link AgentRegistry.register} and {@link AgentRegistry.validate}.
   */
  registerAll(profiles: Iterable<AgentProfile>): this {
    for (const profile of profiles) this.register(profile);
    return this.validate();
  }

  /**
   * Checks that every handoff target names a registered agent.
   * @throws ConfigError listing every unknown target.
   */
  validate(): this {
    const problems: string[] = [];
    for (const profile of this.agents.values()) {
      for (const target of profile.handoffs ?? []) {
        if (!this.agents.has(target)) problems.push(`"${profile.name}" → "${target}"`);
      }
    }
    if (problems.length > 0) {
      throw new ConfigError(
        `Unknown handoff target(s): ${problems.join(', ')}. Registered agents: ${this.names().join(', ')}`,
      );
    }
    return this;
  }

  /** The profile of `name`. */
  get(name: string): AgentProfile | undefined {
    return this.agents.get(name);
  }

  /**
   * The profile of `name`.
   * @throws ConfigError naming the registered agents when there is none.
   */
  require(name: string): AgentProfile {
    const profile = this.agents.get(name);
    if (!profile) {
      throw new ConfigError(`Unknown agent "${name}". Registered agents: ${this.names().join(', ')}`);
    }
    return profile;
  }

  /** True when an agent of that name is registered. */
  has(name: string): boolean {
    return this.agents.has(name);
  }

  /** Every profile, in registration order. */
  list(): AgentProfile[] {
    return [...this.agents.values()];
  }

  /** Every name, in registration order. */
  names(): string[] {
    return [...this.agents.keys()];
  }

  /** Names, descriptions and example queries, as the router lists agents. */
  descriptors(): { name: string; description: string; examples?: readonly string[] }[] {
    return this.list().map(({ name, description, examples }) => ({
      name,
      description,
      ...(examples?.length && { examples }),
    }));
  }

  /** The agents `name` may hand off to (an empty list for an unknown name). */
  targetsOf(name: string): readonly string[] {
    return this.agents.get(name)?.handoffs ?? [];
  }
}
