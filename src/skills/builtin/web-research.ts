/**
 * `web_research` (seed 002): the research pipeline (`research` and its
 * steps) under the seed's id, so the `research` dedicated mode and models
 * that know the seed's skill names find it.
 * @module
 */
import type { Skill } from '../define-skill.js';
import { type ResearchSkillsOptions, researchSkill, researchSkills } from '../research/index.js';

/**
 * `web_research` and the pipeline it runs: the `research` skill's parameters
 * (`{ query, depth?, scenario? }`), output and steps, registered together.
 */
export function webResearchSkills(options: ResearchSkillsOptions): Skill[] {
  const webResearch: Skill = {
    ...researchSkill,
    id: 'web_research',
    name: 'Web research',
  };
  return [webResearch, ...researchSkills(options)];
}
