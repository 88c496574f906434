/**
 * `SkillRegistry` (seed 002 §79–80): the skills of an application, invoked
 * directly (dedicated modes, no model turn), by the model through
 * `invoke_skill`, or by other skills — with validated parameters and output,
 * a nesting limit and cycle detection.
 * @module
 */
import { AbortError, ConfigError, errorMessage, isAbortError, TandemError } from '../core/errors.js';
import { EventBus } from '../core/event-bus.js';
import type { Emitter } from '../core/events.js';
import type { Sandbox } from '../core/sandbox.js';
import { type Runtime, resolveRuntime } from '../core/seams.js';
import { emptyUsage } from '../core/usage.js';
import type { ModelInvoker } from '../model/invoke.js';
import type { ChatModel } from '../model/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { issueLines, type SchemaIssue, validateSchema } from '../tools/schema.js';
import type { Tool } from '../tools/types.js';
import { createSkillContext, type SkillEnvironment } from './context.js';
import { type Skill, skillParametersSchema } from './define-skill.js';
import { SkillError } from './errors.js';

/** The seed's nesting limit: a skill at depth 3 may not invoke another. */
export const DEFAULT_MAX_SKILL_DEPTH = 3;

/** Options of a {@link SkillRegistry}. */
export interface SkillRegistryOptions {
  skills?: Iterable<Skill>;
  /** Model for skills that call one; an invocation may override it. */
  model?: ChatModel;
  invoker?: ModelInvoker;
  /** Tools skills may call, and against which `requiredTools` are checked. */
  tools?: Iterable<Tool> | ToolRegistry;
  /** Deepest nesting allowed (top-level skill = 0). Default 3. */
  maxDepth?: number;
  /** Executor options for `ctx.runAgent` (its `safety`, `limits`, `context`, …). */
  executor?: SkillEnvironment['executor'];
  runtime?: Partial<Runtime>;
}

/** Options of one top-level invocation. */
export interface SkillInvokeOptions {
  signal?: AbortSignal;
  /** Where events go. Default: a fresh bus nobody listens to. */
  emit?: Emitter;
  stepId?: string;
  agent?: string;
  sandbox?: Sandbox;
  /** Overrides the registry's model for this invocation. */
  model?: ChatModel;
  invoker?: ModelInvoker;
  /** Tags the invocation's `skill_output` event (e.g. the orchestrator's step or tool call id). */
  parentId?: string;
}

/** A skill as `list_skills` shows it. */
export interface SkillSummary {
  id: string;
  name: string;
  description: string;
  category: string;
  version: string;
  risk: Skill['risk'];
  parameters: Record<string, unknown>;
  tags: readonly string[];
}

/**
 * The registry.
 *
 * ```ts
 * const skills = new SkillRegistry({ skills: [summarize, ...researchSkills({ search })], model });
 * const report = await skills.invokeDirect('research', { query: 'state of WebGPU' }, { emit, signal });
 * const tools = createSkillTools(skills); // invoke_skill + list_skills for an agent
 * ```
 */
export class SkillRegistry {
  private readonly skills = new Map<string, Skill>();
  private readonly options: SkillRegistryOptions;
  private readonly runtime: Runtime;
  private readonly tools: ToolRegistry;
  private readonly maxDepth: number;

  /** @throws ConfigError for a duplicate id or a bad `maxDepth`. */
  constructor(options: SkillRegistryOptions = {}) {
    this.options = options;
    this.runtime = resolveRuntime(options.runtime);
    this.tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_SKILL_DEPTH;
    if (!Number.isInteger(this.maxDepth) || this.maxDepth < 0) {
      throw new ConfigError(`SkillRegistry: maxDepth must be an integer ≥ 0, got ${this.maxDepth}`);
    }
    for (const skill of options.skills ?? []) this.register(skill);
  }

  /**
   * Adds a skill.
   * @throws ConfigError when the id is taken.
   */
  register(skill: Skill): this {
    if (this.skills.has(skill.id)) throw new ConfigError(`Skill "${skill.id}" is already registered`);
    this.skills.set(skill.id, skill);
    return this;
  }

  get(id: string): Skill | undefined {
    return this.skills.get(id);
  }

  has(id: string): boolean {
    return this.skills.has(id);
  }

  /** Registered ids, in registration order. */
  ids(): string[] {
    return [...this.skills.keys()];
  }

  /** Skills, optionally of one category, in registration order. */
  list(filter: { category?: string; ids?: readonly string[] } = {}): Skill[] {
    return [...this.skills.values()].filter(
      (s) =>
        (!filter.category || s.category === filter.category) && (!filter.ids || filter.ids.includes(s.id)),
    );
  }

  /**
   * {@link SkillRegistry.list} as the model sees it, with each skill's
   * parameters as JSON Schema (made on first need: see {@link skillParametersSchema}).
   * @throws ConfigError (as a rejection) when no JSON Schema can be made of a skill's parameters.
   */
  describe(filter: { category?: string; ids?: readonly string[] } = {}): Promise<SkillSummary[]> {
    return Promise.all(
      this.list(filter).map(async (s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        category: s.category,
        version: s.version,
        risk: s.risk,
        parameters: await skillParametersSchema(s),
        tags: s.tags,
      })),
    );
  }

  /**
   * Invokes a skill at depth 0 without any model turn (dedicated modes, UI
   * buttons, the `invoke_skill` tool). Emits `skill_output` for it and every
   * nested skill.
   * @throws SkillError (`not_found`, `invalid_parameters`, `invalid_output`, `cycle`, `depth_limit`, `missing_tools`, `no_model`, `failed`) or AbortError.
   */
  async invokeDirect<T = unknown>(id: string, params: unknown, options: SkillInvokeOptions = {}): Promise<T> {
    const emit =
      options.emit ??
      new EventBus({
        runId: this.runtime.ids.next('run'),
        clock: this.runtime.clock,
        tracing: this.runtime.tracing,
      });
    const env: SkillEnvironment = {
      signal: options.signal ?? new AbortController().signal,
      runId: emit.runId,
      stepId: options.stepId,
      agent: options.agent,
      sandbox: options.sandbox,
      model: options.model ?? (options.invoker ? undefined : this.options.model),
      invoker: options.invoker ?? (options.model ? undefined : this.options.invoker),
      runtime: this.runtime,
      tools: this.tools,
      executor: this.options.executor,
      usage: emptyUsage(),
    };
    const scoped = options.parentId === undefined ? emit : emit.scope({ parentId: options.parentId });
    return (await this.invokeAt(id, params, { env, depth: 0, parentPath: [], emit: scoped })) as T;
  }

  private async invokeAt(id: string, params: unknown, caller: SkillCaller): Promise<unknown> {
    const { env, depth, parentPath, emit } = caller;
    if (env.signal.aborted) throw new AbortError(env.signal.reason);
    const path = [...parentPath, id];
    const skill = this.skills.get(id);
    if (!skill) {
      const available = this.ids();
      throw new SkillError(
        'not_found',
        `Skill '${id}' not found. Available skills: ${JSON.stringify(available)}`,
        {
          skillId: id,
          availableSkills: available,
        },
      );
    }
    if (parentPath.includes(id)) {
      throw new SkillError('cycle', `Skill cycle refused: ${path.join(' → ')}`, { skillId: id, path });
    }
    if (depth > this.maxDepth) {
      throw new SkillError(
        'depth_limit',
        `Skill nesting limit (${this.maxDepth}) reached: ${path.join(' → ')}`,
        { skillId: id, path },
      );
    }
    const missing = skill.requiredTools.filter((name) => !this.tools.get(name));
    if (missing.length > 0) {
      throw new SkillError(
        'missing_tools',
        `Skill '${id}' needs unavailable tool(s): ${missing.join(', ')}`,
        {
          skillId: id,
          missingTools: missing,
        },
      );
    }
    const parsed = await validateSchema(skill.parameters, params ?? {});
    if (!parsed.success) {
      throw new SkillError(
        'invalid_parameters',
        `Invalid parameters for skill '${id}': ${describe(parsed.issues)}`,
        {
          skillId: id,
          issues: issueLines(parsed.issues),
          expectedParameters: await skillParametersSchema(skill),
        },
      );
    }
    const invocationId = this.runtime.ids.next('skill');
    const frame = { skillId: id, invocationId, depth, path, emit: emit.scope({ parentId: invocationId }) };
    const ctx = createSkillContext(env, frame, (childId, childParams) =>
      this.invokeAt(childId, childParams, { env, depth: depth + 1, parentPath: path, emit: frame.emit }),
    );
    let raw: unknown;
    try {
      raw = await skill.run(parsed.data, ctx);
    } catch (error) {
      if (error instanceof SkillError || error instanceof AbortError) throw error;
      if (env.signal.aborted || isAbortError(error)) throw new AbortError(env.signal.reason ?? error);
      const kind = error instanceof TandemError ? ` (${error.kind})` : '';
      throw new SkillError('failed', `Skill execution failed${kind}: ${errorMessage(error)}`, {
        skillId: id,
        cause: error,
      });
    }
    const output = await validateSchema(skill.output, raw);
    if (!output.success) {
      throw new SkillError(
        'invalid_output',
        `Skill '${id}' returned invalid output: ${describe(output.issues)}`,
        {
          skillId: id,
          issues: issueLines(output.issues),
        },
      );
    }
    emit.emit('skill_output', { skillId: id, output: output.data, depth });
    return output.data;
  }
}

/** Where an invocation comes from: the run's environment and the chain of skills above it. */
interface SkillCaller {
  env: SkillEnvironment;
  /** The depth the invoked skill runs at (0 for a direct invocation). */
  depth: number;
  /** The ids of the skills above it, outermost first (cycles are refused against these). */
  parentPath: readonly string[];
  /** The emitter of the invoking skill (or of the caller, at depth 0). */
  emit: Emitter;
}

function describe(issues: readonly SchemaIssue[]): string {
  return issueLines(issues).join('; ');
}
