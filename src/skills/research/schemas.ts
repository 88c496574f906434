/**
 * The research skills' schemas: zod builds them on first validation (see
 * `model/lazy-zod.ts`), and the parameters' JSON Schemas, which a skill needs
 * when it is defined, are written out as zod writes them.
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

const STRING = { type: 'string' };
const COUNT = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const SOURCES = {
  type: 'array',
  items: {
    type: 'object',
    properties: { n: COUNT, title: STRING, url: STRING, snippet: STRING },
    required: ['n', 'title', 'url', 'snippet'],
  },
};

/** JSON Schema of the parameters of `research` and `research.configure`. */
export const PARAMS_JSON = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: QUERY },
    depth: { default: 'standard', description: DEPTH, type: 'string', enum: DEPTHS },
    scenario: { description: SCENARIO, type: 'string', enum: SCENARIOS },
  },
  required: ['query'],
};

/** JSON Schema of a configured plan, the parameters of `research.search`. */
export const PLAN_JSON = {
  type: 'object',
  properties: {
    query: STRING,
    depth: { type: 'string', enum: DEPTHS },
    scenario: { type: 'string', enum: SCENARIOS },
    queriesPerRound: COUNT,
    rounds: COUNT,
    maxSources: COUNT,
    guidance: STRING,
  },
  required: ['query', 'depth', 'scenario', 'queriesPerRound', 'rounds', 'maxSources', 'guidance'],
};

/** JSON Schema of the parameters of a step after the search, plus its own `extra` string. */
export function stepParamsJson(extra?: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    query: STRING,
    guidance: { default: '', type: 'string' },
    sources: SOURCES,
  };
  if (extra) properties[extra] = STRING;
  return { type: 'object', properties, required: extra ? ['query', 'sources', extra] : ['query', 'sources'] };
}
