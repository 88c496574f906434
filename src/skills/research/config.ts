/**
 * Research configuration (seed 002 `init_config`): the depth sets how many
 * queries, rounds and sources; the scenario sets the prompts' focus.
 * @module
 */
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import { defineSkill } from '../define-skill.js';
import { researchZod } from './schemas.js';

/** How thorough a research run is. */
export type ResearchDepth = 'quick' | 'standard' | 'deep';

/** The kind of question, which flavours every prompt. */
export type ResearchScenario = 'academic' | 'market' | 'technical' | 'news';

/** Search budget of a depth. */
export interface DepthBudget {
  /** Queries per round. */
  queriesPerRound: number;
  /** Search rounds; rounds after the first ask for follow-up queries. */
  rounds: number;
  /** Unique sources kept. */
  maxSources: number;
}

/** Budgets by depth. */
export const RESEARCH_DEPTHS: Readonly<Record<ResearchDepth, DepthBudget>> = Object.freeze({
  quick: { queriesPerRound: 2, rounds: 1, maxSources: 5 },
  standard: { queriesPerRound: 3, rounds: 2, maxSources: 10 },
  deep: { queriesPerRound: 4, rounds: 3, maxSources: 20 },
});

/** The focus each scenario adds to the prompts. */
export const SCENARIO_GUIDANCE: Readonly<Record<ResearchScenario, string>> = Object.freeze({
  academic:
    'Academic research: prefer peer-reviewed papers, preprints and university sources; note methods and sample sizes; separate consensus from single studies.',
  market:
    'Market research: prefer company filings, market reports and reputable business press; give figures with their dates and currencies; note competitors and trends.',
  technical:
    'Technical research: prefer official documentation, specifications, source repositories and engineering write-ups; note versions, trade-offs and limitations.',
  news: 'News research: prefer recent reporting from several outlets; give dates; separate confirmed facts from claims; flag stories still developing.',
});

const SCENARIO_HINTS: readonly [ResearchScenario, RegExp][] = [
  ['news', /\b(news|latest|today|this week|yesterday|breaking|announced|recent(ly)?)\b/i],
  [
    'academic',
    /\b(paper|papers|study|studies|research(ers)?|peer[- ]review|journal|literature|meta-analysis|thesis)\b/i,
  ],
  [
    'market',
    /\b(market|revenue|pricing|competitors?|industry|share|startup|funding|valuation|sales|customers)\b/i,
  ],
];

/** The scenario a question suggests (keywords), `technical` by default. */
export function inferScenario(query: string): ResearchScenario {
  for (const [scenario, pattern] of SCENARIO_HINTS) if (pattern.test(query)) return scenario;
  return 'technical';
}

/** Output of `research.configure`: a configured research run. */
export interface ResearchPlan extends DepthBudget {
  query: string;
  depth: ResearchDepth;
  scenario: ResearchScenario;
  /** The scenario's focus, for the prompts. */
  guidance: string;
}

/** A configured research run. */
export const researchPlanSchema: LazySchema<ResearchPlan> = lazySchema((z) => researchZod.with(z).plan);

/** Parameters of `research.configure` and of the `research` pipeline (`depth` defaults to `standard`). */
export interface ResearchParams {
  query: string;
  depth: ResearchDepth;
  /** Inferred from the question when left out. */
  scenario?: ResearchScenario;
}

/** Parameters of `research.configure` and of the `research` pipeline. */
export const researchParamsSchema: LazySchema<ResearchParams> = lazySchema((z) => researchZod.with(z).params);

/** `research.configure`: depth and scenario → the search budget and the prompts' focus. No model call. */
export function configureSkill(depths: Readonly<Record<ResearchDepth, DepthBudget>> = RESEARCH_DEPTHS) {
  return defineSkill({
    id: 'research.configure',
    description: 'Choose the search budget (queries, rounds, sources) and focus of a research run',
    category: 'research',
    parameters: researchParamsSchema,
    output: researchPlanSchema,
    run({ query, depth, scenario }) {
      const chosen = scenario ?? inferScenario(query);
      return { query, depth, scenario: chosen, ...depths[depth], guidance: SCENARIO_GUIDANCE[chosen] };
    },
  });
}
