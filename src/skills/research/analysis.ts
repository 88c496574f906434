/**
 * The model steps between search and report (seed 002 `analyze`,
 * `synthesize`): key findings per source, then one synthesis across them,
 * both citing sources as [n].
 * @module
 */
import { lazySchema } from '../../model/lazy-zod.js';
import { defineSkill } from '../define-skill.js';
import { researchZod } from './schemas.js';
import { formatSources } from './sources.js';

const ANALYST =
  'You are a research analyst. Judge each numbered source for relevance to the question and extract its key findings. Cite sources as [n] with their numbers. Skip irrelevant sources and say so briefly.';

const SYNTHESIST =
  'You are a research synthesist. Combine the analysed findings into one coherent account: agreements, disagreements, open questions. Keep every [n] citation attached to the claim it supports; never invent sources.';

/** `research.analyze`: relevance and key findings of the sources (not streamed: an internal step). */
export const analyzeSkill = defineSkill({
  id: 'research.analyze',
  description: 'Analyse numbered sources for relevance and key findings, citing them as [n]',
  category: 'research',
  parameters: lazySchema((z) => researchZod.with(z).analyzeParams),
  output: lazySchema((z) => researchZod.with(z).analyzeOutput),
  async run({ query, guidance, sources }, ctx) {
    const prompt = `Question: ${query}\nFocus: ${guidance}\n\nSources:\n${formatSources(sources)}\n\nAnalyse the sources.`;
    return { analysis: await ctx.generate(prompt, { system: ANALYST }) };
  },
});

/** `research.synthesize`: one account across the analysed findings (streamed). */
export const synthesizeSkill = defineSkill({
  id: 'research.synthesize',
  description: 'Synthesise analysed findings into one account, keeping [n] citations',
  category: 'research',
  parameters: lazySchema((z) => researchZod.with(z).synthesizeParams),
  output: lazySchema((z) => researchZod.with(z).synthesizeOutput),
  async run({ query, guidance, sources, analysis }, ctx) {
    const list = sources.map((s) => `[${s.n}] ${s.title}`).join('\n');
    const prompt = `Question: ${query}\nFocus: ${guidance}\n\nSources:\n${list}\n\nAnalysis:\n${analysis}\n\nSynthesise.`;
    return { synthesis: await ctx.generate(prompt, { system: SYNTHESIST, stream: true }) };
  },
});
