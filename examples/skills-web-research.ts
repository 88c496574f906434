/**
 * The `web_research` built-in skill, offline: the research pipeline under the
 * seed's id, over a scripted search and a scripted model. The "research"
 * dedicated mode invokes it with `{ query: task }`.
 *
 *   npx tsx examples/skills-web-research.ts
 *
 * For real use, pass a search API client as `search` (any
 * `(query) => [{ title, url, snippet }]`) and a real model.
 */
import { EventBus, type ResearchOutput, SkillRegistry } from 'tandem-agents';
import { DEDICATED_MODE_SKILLS, webResearchSkills } from 'tandem-agents/skills';
import { ScriptedModel, testRuntime } from 'tandem-agents/testing';

const search = (query: string) => [
  { title: 'Heat pumps explained', url: 'https://example.org/heat-pumps', snippet: `Results for ${query}.` },
  {
    title: 'Field study of COP',
    url: 'https://example.org/cop-study',
    snippet: 'Seasonal COP of 3 in cold climates.',
  },
];

const model = new ScriptedModel([
  { text: '["heat pump efficiency cold climate"]' },
  { text: 'Source [2] measures a seasonal COP near 3; [1] explains why.' },
  { text: 'Heat pumps keep a COP near 3 in cold climates [2], thanks to modern compressors [1].' },
  {
    text: '# Heat pumps in the cold\n\nThey keep a seasonal COP near 3 [2], thanks to modern compressors [1].',
  },
]);

const runtime = testRuntime();
const bus = new EventBus({ runId: 'run_research', clock: runtime.clock });
bus.on('source', (e) => console.log(`[source] ${e.title}`));

const mode = DEDICATED_MODE_SKILLS.research!;
const skills = new SkillRegistry({ skills: webResearchSkills({ search }), model, runtime });
const out = await skills.invokeDirect<ResearchOutput>(
  mode.skill,
  { [mode.param]: 'Do heat pumps work in cold climates?', depth: 'quick' },
  { emit: bus },
);
console.log(`\n${out.report}`);
console.log(`\n${mode.skill}: ${out.citations.length} citation(s)`);
