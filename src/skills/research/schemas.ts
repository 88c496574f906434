/**
 * The research skills' schemas: zod builds them on first use (see
 * `model/lazy-zod.ts`); the parameters' JSON Schemas are made from them when
 * a model is first shown the skills.
 * @module
 */
import { zodBuilt } from '../../model/lazy-zod.js';

const DEPTHS = ['quick', 'standard', 'deep'] as const;
const SCENARIOS = ['academic', 'market', 'technical', 'news'] as const;
const QUERY = 'The research question';
const DEPTH = 'quick, standard or deep';
const SCENARIO = 'academic, market, technical or news; inferred from the question when left out';

/** Every research schema, as zod builds them. */
export const researchZod = zodBuilt((z) => {
  const depth = z.enum(DEPTHS);
  const scenario = z.enum(SCENARIOS);
  const count = z.number().int().min(1);
  const source = z.object({ n: count, title: z.string(), url: z.string(), snippet: z.string() });
  const step = z.object({ query: z.string(), guidance: z.string().default(''), sources: z.array(source) });
  const report = z.object({
    report: z.string(),
    citations: z.array(source),
    invalidCitations: z.array(z.number()),
  });
  return {
    source,
    params: z.object({
      query: z.string().trim().min(1).describe(QUERY),
      depth: depth.default('standard').describe(DEPTH),
      scenario: scenario.optional().describe(SCENARIO),
    }),
    plan: z.object({
      query: z.string(),
      depth,
      scenario,
      queriesPerRound: count,
      rounds: count,
      maxSources: count,
      guidance: z.string(),
    }),
    searchOutput: z.object({
      sources: z.array(source),
      queries: z.array(z.string()),
      failedQueries: z.array(z.object({ query: z.string(), error: z.string() })),
    }),
    analyzeParams: step,
    analyzeOutput: z.object({ analysis: z.string() }),
    synthesizeParams: step.extend({ analysis: z.string() }),
    synthesizeOutput: z.object({ synthesis: z.string() }),
    reportParams: step.extend({ synthesis: z.string() }),
    report,
    researchOutput: report.extend({
      query: z.string(),
      depth,
      scenario,
      /** Every source found, numbered as the search found them. */
      sources: z.array(source),
      queries: z.array(z.string()),
      /** The synthesis the report was written from. */
      synthesis: z.string(),
    }),
  };
});
