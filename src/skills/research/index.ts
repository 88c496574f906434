/**
 * The research pipeline as skills: `research` and the steps it composes.
 * @module
 */
import type { Skill } from '../define-skill.js';
import { analyzeSkill, synthesizeSkill } from './analysis.js';
import { configureSkill, type DepthBudget, RESEARCH_DEPTHS, type ResearchDepth } from './config.js';
import { researchSkill } from './pipeline.js';
import { reportSkill } from './report.js';
import { type ResearchSearch, searchSkill } from './search.js';

export * from './analysis.js';
export * from './config.js';
export * from './pipeline.js';
export * from './report.js';
export * from './search.js';
export * from './sources.js';

/** Options of {@link researchSkills}. */
export interface ResearchSkillsOptions {
  /** The web search: a function, or the name of a registry tool taking `{ query }`. */
  search: ResearchSearch;
  /** Budgets by depth, over {@link RESEARCH_DEPTHS}. */
  depths?: Partial<Record<ResearchDepth, DepthBudget>>;
  /**
   * Searches of one round running at once. Default 1: one after another, as
   * the seeds do. Sources are numbered in query order either way.
   */
  searchConcurrency?: number;
}

/**
 * `research` and its steps (`research.configure`, `research.search`,
 * `research.analyze`, `research.synthesize`, `research.report`), to register
 * together.
 *
 * ```ts
 * const skills = new SkillRegistry({ skills: researchSkills({ search: mySearch }), model });
 * const out = await skills.invokeDirect('research', { query: 'How do CRDTs merge?', depth: 'quick' });
 * ```
 */
export function researchSkills(options: ResearchSkillsOptions): Skill[] {
  const depths = { ...RESEARCH_DEPTHS, ...options.depths };
  return [
    researchSkill,
    configureSkill(depths),
    searchSkill(options.search, options.searchConcurrency),
    analyzeSkill,
    synthesizeSkill,
    reportSkill,
  ];
}
