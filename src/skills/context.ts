/**
 * `SkillContext`: what a running skill gets — cancellation, events, the run's
 * sandbox and model — and the helpers to compose: other skills, tools, one
 * model call, or a whole ReAct agent.
 * @module
 */
import {
  Executor,
  type ExecutorOptions,
  type ExecutorResult,
  executeOn,
  mergeExecutorOptions,
} from '../agents/executor/index.js';
import { AbortError, errorMessage } from '../core/errors.js';
import type { Emitter, EventPayloads } from '../core/events.js';
import { mediaSummary } from '../core/media.js';
import { type MediaPart, textOf } from '../core/messages.js';
import type { Sandbox } from '../core/sandbox.js';
import type { Runtime } from '../core/seams.js';
import { addUsage, type Usage } from '../core/usage.js';
import { answeringModelId, type ModelInvoker } from '../model/invoke.js';
import { directInvoker } from '../model/resilience/resilient-invoker.js';
import type { ChatModel, ModelRequest } from '../model/types.js';
import { toolOutputOf } from '../tools/output.js';
import type { ToolRegistry } from '../tools/registry.js';
import { issueLines, validateSchema } from '../tools/schema.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { SkillError } from './errors.js';

/** Options of {@link SkillContext.generate}. */
export interface GenerateTextOptions {
  system?: string;
  /** Emit `token` events as the reply streams. Default false (an internal step). */
  stream?: boolean;
  temperature?: number;
  maxOutputTokens?: number;
}

/** What a running skill gets. */
export interface SkillContext {
  readonly skillId: string;
  /** Id of this invocation; events the skill emits carry it as `parentId`. */
  readonly invocationId: string;
  /** 0 for a skill invoked directly or by the model, +1 per nesting. */
  readonly depth: number;
  /** Skill ids from the outermost invocation to this one. */
  readonly path: readonly string[];
  readonly signal: AbortSignal;
  /** Emits with `parentId` = this invocation. */
  readonly emit: Emitter;
  readonly runId: string;
  readonly stepId?: string;
  readonly agent?: string;
  readonly sandbox?: Sandbox;
  /** The model for skills that call one (also behind {@link SkillContext.generate}). */
  readonly model?: ChatModel;
  readonly invoker?: ModelInvoker;
  readonly runtime: Runtime;
  /** The tools available to skills. */
  readonly tools: ToolRegistry;
  /**
   * Invokes another skill one level deeper and returns its validated output.
   * @throws SkillError `cycle` when `id` is already in the chain, `depth_limit` past the registry's limit, or the nested skill's own error.
   */
  invokeSkill<T = unknown>(id: string, params: unknown): Promise<T>;
  /**
   * One model call on `prompt`; returns the reply text and emits `usage`.
   * @throws SkillError `no_model` when no model is configured.
   */
  generate(prompt: string, options?: GenerateTextOptions): Promise<string>;
  /**
   * Runs a ReAct {@link Executor} with `instructions` as its system prompt on
   * `input`, with `tools`, on this skill's events and signal.
   * @throws SkillError `no_model` when no model is configured.
   */
  runAgent(instructions: string, input: string, tools?: readonly Tool[]): Promise<ExecutorResult>;
  /**
   * Runs a tool of {@link SkillContext.tools} with `tool_call` / `tool_result`
   * events and returns what it returned.
   * @throws SkillError `missing_tools` for an unknown tool, `failed` for invalid arguments; rethrows the tool's error.
   */
  callTool<T = unknown>(name: string, args: unknown): Promise<T>;
  /** A {@link ToolContext} for running a tool by hand (call id: the invocation id). */
  toolContext(): ToolContext;
}

/** What every invocation of one top-level call shares. */
export interface SkillEnvironment {
  signal: AbortSignal;
  runId: string;
  stepId?: string;
  agent?: string;
  sandbox?: Sandbox;
  model?: ChatModel;
  invoker?: ModelInvoker;
  runtime: Runtime;
  tools: ToolRegistry;
  /** Executor options for {@link SkillContext.runAgent} (its `safety`, `limits`, `context`, …). */
  executor?: Partial<Omit<ExecutorOptions, 'model' | 'resilience' | 'tools' | 'instructions'>>;
  /** Usage of every model call of the invocation tree. */
  usage: Usage;
}

/** One invocation's place in the tree. */
export interface SkillFrame {
  skillId: string;
  invocationId: string;
  depth: number;
  path: readonly string[];
  emit: Emitter;
}

/** Builds the context of one invocation; `invokeSkill` is the registry's nested call. */
export function createSkillContext(
  env: SkillEnvironment,
  frame: SkillFrame,
  invokeSkill: (id: string, params: unknown) => Promise<unknown>,
): SkillContext {
  const invoker = env.invoker ?? (env.model ? directInvoker(env.model) : undefined);
  const needInvoker = (what: string): ModelInvoker => {
    if (invoker) return invoker;
    throw new SkillError(
      'no_model',
      `Skill '${frame.skillId}' needs a model for ${what}, and none is configured`,
      {
        skillId: frame.skillId,
      },
    );
  };
  const toolContext = (toolCallId: string): ToolContext => ({
    signal: env.signal,
    runId: env.runId,
    toolCallId,
    stepId: env.stepId,
    agent: env.agent,
    sandbox: env.sandbox,
    emit: frame.emit.scope({ parentId: toolCallId }),
  });
  return {
    ...frame,
    signal: env.signal,
    runId: env.runId,
    stepId: env.stepId,
    agent: env.agent,
    sandbox: env.sandbox,
    model: invoker?.model ?? env.model,
    invoker,
    runtime: env.runtime,
    tools: env.tools,
    invokeSkill: invokeSkill as SkillContext['invokeSkill'],
    toolContext: () => toolContext(frame.invocationId),

    async generate(prompt, options = {}) {
      const chosen = needInvoker('a model call');
      if (env.signal.aborted) throw new AbortError(env.signal.reason);
      const request: ModelRequest = { messages: [{ role: 'user', content: prompt }] };
      if (options.system) request.system = options.system;
      if (options.temperature !== undefined) request.temperature = options.temperature;
      if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
      const response = await chosen.invoke(request, {
        signal: env.signal,
        emit: frame.emit,
        stream: options.stream ?? false,
      });
      addUsage(env.usage, response.usage);
      frame.emit.emit('usage', {
        model: answeringModelId(response, chosen),
        usage: response.usage,
        total: { ...env.usage },
      });
      return textOf(response.message);
    },

    async runAgent(instructions, input, tools = []) {
      const chosen = needInvoker('an agent');
      const executor = new Executor(
        mergeExecutorOptions(env.executor, {
          name: env.executor?.name ?? frame.skillId,
          model: chosen.model,
          resilience: { invoker: () => chosen },
          tools: [...tools],
          instructions,
          sandbox: env.sandbox,
          runtime: env.runtime,
        }),
      );
      const result = await executeOn(executor, input, {
        emit: frame.emit,
        signal: env.signal,
        stepId: env.stepId,
      });
      addUsage(env.usage, result.usage);
      // A skill's sub-agent keeps the contract skills were written against: a failure throws.
      if (result.status === 'failed' && result.error) throw result.error;
      return result;
    },

    async callTool<T>(name: string, args: unknown): Promise<T> {
      const tool = env.tools.get(name);
      if (!tool) {
        throw new SkillError(
          'missing_tools',
          `Skill '${frame.skillId}' called tool '${name}', which is not available`,
          {
            skillId: frame.skillId,
            missingTools: [name],
          },
        );
      }
      const parsed = await validateSchema(tool.parameters, args);
      if (!parsed.success) {
        throw new SkillError(
          'failed',
          `Skill '${frame.skillId}' called tool '${name}' with invalid arguments`,
          { skillId: frame.skillId, issues: issueLines(parsed.issues) },
        );
      }
      const id = env.runtime.ids.next('call');
      const start = env.runtime.clock.now();
      frame.emit.emit('tool_call', { id, name, args: parsed.data });
      const finish = (output: string, isError: boolean, attachments?: MediaPart[]) => {
        const durationMs = env.runtime.clock.now() - start;
        const event: EventPayloads['tool_result'] = { id, name, output, isError, durationMs };
        // Images and files show as their sizes and media types, never their bytes.
        if (attachments) event.attachments = attachments.map(mediaSummary);
        frame.emit.emit('tool_result', event);
      };
      try {
        const result = await tool.execute(parsed.data, toolContext(id));
        const read = toolOutputOf(result);
        if ('invalid' in read) finish(`Error: ${read.invalid}`, true);
        else finish(read.text, false, read.attachments);
        return result as T;
      } catch (error) {
        finish(`Error: ${errorMessage(error)}`, true);
        throw error;
      }
    },
  };
}
