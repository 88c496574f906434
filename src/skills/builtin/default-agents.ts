/**
 * `defaultAgents()`: seed 003's five specialists, ready to use — a
 * `HandoffManager` over their profiles with the seed's handoff matrix, and a
 * `Router` (flash tier) whose prompt lists each agent with its example
 * queries. Each specialist's work goes through a skill tool that writes what
 * it produced into the run's shared memory, which every later agent reads.
 * @module
 */

import type { z } from 'zod/v4';
import {
  type AgentProfile,
  AgentRegistry,
  type AgentToolsRun,
  HandoffManager,
  type HandoffManagerOptions,
  Router,
  type RouterOptions,
} from '../../agents/index.js';
import type { SharedMemory } from '../../context/shared-memory.js';
import type { Sandbox } from '../../core/sandbox.js';
import type { Runtime } from '../../core/seams.js';
import { createModelTiers, type ModelTiers, type TierMap } from '../../model/resilience/tiers.js';
import type { ChatModel } from '../../model/types.js';
import { defineTool, type Tool } from '../../tools/types.js';
import type { Skill } from '../define-skill.js';
import { SkillRegistry } from '../registry.js';
import {
  type ResearchOutput,
  type ResearchSearch,
  rememberResearch,
  researchSkill,
  researchSkills,
} from '../research/index.js';
import { type codeGenerationOutputSchema, codeGenerationSkill } from './code-generation.js';
import { type DataAnalysisOutput, dataAnalysisSkill } from './data-analysis.js';
import { SPECIALIST_NAMES, SPECIALIST_PROFILES, type SpecialistName } from './specialist-profiles.js';
import { type WritingOutput, writingSkill } from './writing.js';

/** Options of {@link defaultAgents}. */
export interface DefaultAgentsOptions {
  /**
   * One model for everything, or models by tier (`{ max, pro, flash }` or
   * `createModelTiers(...)`): code works on `max`, the others on `pro`, the
   * router on `flash` (an unset tier borrows from the nearest set one).
   */
  models: ChatModel | ModelTiers | TierMap<ChatModel>;
  /**
   * The research agent's web search: a `SearchFunction` (e.g. the `.search`
   * of `tandem-agents/search`'s `searxng()` or `tavily()`) or a registry tool
   * name. Without it the research agent has no research tool.
   */
  search?: ResearchSearch;
  /** Where the code and data agents' work runs (`code_generation`, `data_analysis`, your sandbox tools). */
  sandbox?: Sandbox;
  /** More tools by agent, e.g. `{ code: createSandboxTools(sandbox), chat: [webSearchTool(provider)] }`. */
  tools?: Partial<Record<SpecialistName, readonly Tool[]>>;
  /** The model of the skills' own calls (research pipeline, writing phases, analysis). Default: the `pro` tier. */
  skillModel?: ChatModel;
  /** More of the manager's options: `maxHandoffs`, `transferArtifacts`, `executor`, `invoker`. */
  manager?: Omit<HandoffManagerOptions, 'agents' | 'model' | 'models' | 'tools' | 'runtime'>;
  /** More of the router's options (its model defaults to the `flash` tier). */
  router?: Omit<RouterOptions, 'agents' | 'defaultAgent' | 'model' | 'runtime'> & { model?: ChatModel };
  runtime?: Partial<Runtime>;
}

/**
 * What {@link defaultAgents} builds. `handoffs` and `router` are the
 * Orchestrator's options of those names (spread the result into its
 * options); `agents` and `skillRegistry` are there to inspect or extend.
 */
export interface SpecialistAgents {
  agents: AgentRegistry;
  handoffs: HandoffManager;
  router: Router;
  skillRegistry: SkillRegistry;
}

/** A skill an agent works through, and what of its output goes into the shared memory. */
interface AgentSkill {
  skill: Skill;
  remember(memory: SharedMemory, output: unknown): void;
}

/**
 * Seed 003's chat, research, code, writing and data agents.
 *
 * ```ts
 * const team = defaultAgents({ models: { max, pro, flash }, search: searxng({ baseUrl }).search, sandbox });
 * const orchestrator = new Orchestrator({ models: { planner: pro, executor: pro }, ...team });
 * await orchestrator.run('Compare the top 3 vector databases'); // routed to research
 * ```
 *
 * The router's default agent is `chat`: with an Orchestrator, a query routed
 * to chat takes the Orchestrator's own plan-or-not flow (whose executors may
 * `delegate_to_research`); `mode: 'chat'` runs the chat agent itself.
 */
export function defaultAgents(options: DefaultAgentsOptions): SpecialistAgents {
  const tiers = tiersOf(options.models);
  const runtime = options.runtime;
  const skillsOf = agentSkills(options);
  const skillRegistry = new SkillRegistry({
    skills: [
      ...(options.search ? researchSkills({ search: options.search }) : []),
      codeGenerationSkill,
      dataAnalysisSkill,
      writingSkill,
    ],
    model: options.skillModel ?? tiers.get('pro'),
    runtime,
  });
  const agents = new AgentRegistry(SPECIALIST_NAMES.map((name) => profileOf(name, options, skillsOf)));
  const handoffs = new HandoffManager({
    ...options.manager,
    agents,
    models: tiers,
    runtime,
    tools: (profile, run) => [
      ...(options.tools?.[profile.name as SpecialistName] ?? []),
      ...(skillsOf[profile.name as SpecialistName] ?? []).map((s) => skillTool(skillRegistry, s, run)),
    ],
  });
  const { model: routerModel, ...routerOptions } = options.router ?? {};
  const router = new Router({
    ...routerOptions,
    model: routerModel ?? tiers.get('flash'),
    agents: agents.descriptors(),
    defaultAgent: 'chat',
    runtime,
  });
  return { agents, handoffs, router, skillRegistry };
}

function tiersOf(models: DefaultAgentsOptions['models']): ModelTiers {
  if (isChatModel(models)) return createModelTiers({ max: models, pro: models, flash: models });
  if (isModelTiers(models)) return models;
  return createModelTiers(models);
}

function isChatModel(value: DefaultAgentsOptions['models']): value is ChatModel {
  return typeof (value as ChatModel).generate === 'function';
}

function isModelTiers(value: DefaultAgentsOptions['models']): value is ModelTiers {
  return typeof (value as ModelTiers).get === 'function' && typeof (value as ModelTiers).has === 'function';
}

/** The profile of `name`, with the sandbox where its work runs. */
function profileOf(
  name: SpecialistName,
  options: DefaultAgentsOptions,
  skills: Partial<Record<SpecialistName, AgentSkill[]>>,
): AgentProfile {
  const profile = SPECIALIST_PROFILES[name];
  const runsCode = name === 'code' || name === 'data';
  return {
    ...profile,
    skills: (skills[name] ?? []).map((s) => s.skill.id),
    ...(runsCode && options.sandbox && { sandbox: options.sandbox }),
  };
}

/** Which skill each agent works through, and what each writes to the shared memory. */
function agentSkills(options: DefaultAgentsOptions): Partial<Record<SpecialistName, AgentSkill[]>> {
  const research: AgentSkill[] = options.search
    ? [{ skill: researchSkill, remember: rememberResearchOutput }]
    : [];
  return {
    research,
    code: [{ skill: codeGenerationSkill, remember: rememberCode }],
    writing: [{ skill: writingSkill, remember: rememberWriting }],
    data: [{ skill: dataAnalysisSkill, remember: rememberData }],
  };
}

/**
 * The skill as a tool of its own name: invokes it on the registry (with the
 * call's signal, events and sandbox) and writes its output to the run's memory.
 */
function skillTool(registry: SkillRegistry, agentSkill: AgentSkill, run: AgentToolsRun): Tool {
  const { skill, remember } = agentSkill;
  return defineTool({
    name: skill.id,
    description: skill.description,
    parameters: skill.parameters,
    risk: skill.risk,
    async execute(params, ctx) {
      const output = await registry.invokeDirect(skill.id, params, {
        signal: ctx.signal,
        emit: ctx.emit,
        stepId: ctx.stepId,
        agent: ctx.agent,
        sandbox: ctx.sandbox,
        parentId: ctx.toolCallId,
      });
      remember(run.memory, output);
      return output;
    },
  });
}

function rememberResearchOutput(memory: SharedMemory, output: unknown): void {
  rememberResearch(memory, output as ResearchOutput);
}

function rememberCode(memory: SharedMemory, output: unknown): void {
  const { code, language, testOutput, note } = output as z.output<typeof codeGenerationOutputSchema>;
  memory.set('generatedCode', code);
  memory.set('codeLanguage', language);
  const ran = testOutput ? `exit ${testOutput.exitCode}\n${testOutput.stdout}${testOutput.stderr}` : '';
  memory.set('executionResults', ran || note || '');
}

function rememberWriting(memory: SharedMemory, output: unknown): void {
  const { outline, content } = output as WritingOutput;
  memory.set('writingOutline', outline);
  memory.set('writingDraft', content);
}

function rememberData(memory: SharedMemory, output: unknown): void {
  const { plan, summary, results, artifacts } = output as DataAnalysisOutput;
  memory.set('dataAnalysisPlan', plan);
  const numbers = Object.keys(results).length > 0 ? `\n${JSON.stringify(results)}` : '';
  memory.set('executionResults', `${summary}${numbers}`);
  memory.set(
    'dataVisualizations',
    artifacts.map((a) => a.path),
  );
}
