/**
 * `tandem-agents/skills`: the seed's seven built-in skills, sandbox-backed —
 * `data_analysis`, `code_generation`, `app_builder`, `slide_generation`,
 * `web_research`, `task_planning` and `image_generation` — and the table of
 * the dedicated modes that invoke them directly.
 *
 * ```ts
 * const skills = new SkillRegistry({ skills: builtinSkills({ search, imageModel }), model });
 * const out = await skills.invokeDirect('data_analysis', { query: 'Mean price per region?' }, { sandbox });
 * ```
 * @packageDocumentation
 */
import { DEFAULT_SKILL_MODES } from '../../agents/index.js';
import type { ImageModel } from '../../core/image-model.js';
import type { Skill } from '../define-skill.js';
import type { ResearchSkillsOptions } from '../research/index.js';
import { appBuilderSkill } from './app-builder.js';
import { AppHost } from './app-host.js';
import { codeGenerationSkill } from './code-generation.js';
import { dataAnalysisSkill } from './data-analysis.js';
import { imageGenerationSkill } from './image-generation.js';
import { slideGenerationSkill } from './slide-generation.js';
import type { PptxLoader } from './slide-render.js';
import { taskPlanningSkill } from './task-planning.js';
import { webResearchSkills } from './web-research.js';

export * from './app-builder.js';
export * from './app-host.js';
export * from './app-templates.js';
export * from './code-generation.js';
export * from './data-analysis.js';
export * from './default-agents.js';
export * from './errors.js';
export * from './image-generation.js';
export * from './slide-generation.js';
export {
  loadPptxGenJS,
  type Outline,
  outlineSchema,
  PPTX_PACKAGE,
  type PptxLoader,
  type PptxPresentation,
  type PptxSlide,
} from './slide-render.js';
export * from './specialist-profiles.js';
export { type Artifact, artifactSchema, INLINE_IMAGE_MAX_BYTES, imagePartSchema } from './support.js';
export * from './task-planning.js';
export * from './web-research.js';
export * from './writing.js';

/** A dedicated mode: the skill it invokes and the parameter that receives the task. */
export interface DedicatedModeSkill {
  skill: string;
  param: string;
}

/**
 * The seed's dedicated modes (seed 002 §1 item 24) as the built-in skills
 * serve them: the orchestrator's `DEFAULT_SKILL_MODES`, with `research` on
 * `web_research`. `orchestrator.run(task, { mode })` invokes the skill
 * directly with `{ [param]: task }`, no model turn first.
 */
export const DEDICATED_MODE_SKILLS: Readonly<Record<string, DedicatedModeSkill>> = Object.freeze(
  Object.fromEntries(
    Object.entries(DEFAULT_SKILL_MODES).map(([mode, { skill, param, fallback }]) => [
      mode,
      fallback ? { skill: fallback.skill, param: fallback.param } : { skill, param },
    ]),
  ),
);

/** Options of {@link builtinSkills}. */
export interface BuiltinSkillsOptions {
  /** The web search of `web_research`; without it `web_research` and the research steps are left out. */
  search?: ResearchSkillsOptions['search'];
  /** Research budgets by depth. */
  depths?: ResearchSkillsOptions['depths'];
  /** The image model of `image_generation`; without it `image_generation` is left out. */
  imageModel?: ImageModel;
  /** Where `app_builder` keeps the apps it starts. Default: a fresh {@link AppHost}. */
  apps?: AppHost;
  /** Loads pptxgenjs for `slide_generation`. Default: `import('pptxgenjs')`. */
  loadPptx?: PptxLoader;
  /** `fetch` for image downloads and the app reachability check. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/**
 * The built-in skills, to register together: always `data_analysis`,
 * `code_generation`, `app_builder`, `slide_generation` and `task_planning`;
 * `web_research` (with the research steps) given `search`;
 * `image_generation` given `imageModel`.
 */
export function builtinSkills(options: BuiltinSkillsOptions = {}): Skill[] {
  const skills: Skill[] = [
    dataAnalysisSkill,
    codeGenerationSkill,
    appBuilderSkill({ apps: options.apps ?? new AppHost(), fetch: options.fetch }),
    slideGenerationSkill({ loadPptx: options.loadPptx }),
    taskPlanningSkill,
  ];
  if (options.search) skills.push(...webResearchSkills({ search: options.search, depths: options.depths }));
  if (options.imageModel)
    skills.push(imageGenerationSkill({ model: options.imageModel, fetch: options.fetch }));
  return skills;
}
