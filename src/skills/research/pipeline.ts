/**
 * The `research` skill (seeds 002, 003): configure → search loop → analyse →
 * synthesise → write the report, each step a skill of its own invoked through
 * the context, each wrapped in a `stage` event.
 * @module
 */
import type { SharedMemory } from '../../context/shared-memory.js';
import { errorMessage } from '../../core/errors.js';
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import {
  type ResearchDepth,
  type ResearchPlan,
  type ResearchScenario,
  researchParamsSchema,
} from './config.js';
import type { CitedReport } from './report.js';
import { researchZod } from './schemas.js';
import type { SearchOutput } from './search.js';
import type { Source } from './sources.js';

/** What the `research` skill returns. */
export interface ResearchOutput extends CitedReport {
  query: string;
  depth: ResearchDepth;
  scenario: ResearchScenario;
  /** Every source found, numbered as the search found them. */
  sources: Source[];
  queries: string[];
  /** The synthesis the report was written from. */
  synthesis: string;
}

/** Output of the `research` skill. */
export const researchOutputSchema: LazySchema<ResearchOutput> = lazySchema(
  (z) => researchZod.with(z).researchOutput,
);

/** What a `stage` event pair reports about the step it wraps. */
export interface SkillStage {
  /** The step's name, e.g. `search`. */
  name: string;
  /** Shown with the `running` event; default `''`. */
  detail?: string;
}

/** Runs `fn` inside a `stage` event pair (closed as failed when it throws). */
export async function skillStage<T>(ctx: SkillContext, stage: SkillStage, fn: () => Promise<T>): Promise<T> {
  const { name, detail = '' } = stage;
  ctx.emit.emit('stage', { name, status: 'running', detail });
  try {
    const result = await fn();
    ctx.emit.emit('stage', { name, status: 'completed' });
    return result;
  } catch (error) {
    ctx.emit.emit('stage', { name, status: 'failed', detail: errorMessage(error) });
    throw error;
  }
}

/** `research`: the whole pipeline. Parameters `{ query, depth?, scenario? }`. */
export const researchSkill = defineSkill({
  id: 'research',
  name: 'Research',
  description:
    'Research a question on the web and write a cited Markdown report. depth: quick | standard | deep; scenario: academic | market | technical | news',
  category: 'research',
  tags: ['web', 'report', 'citations'],
  parameters: researchParamsSchema,
  output: researchOutputSchema,
  async run(params, ctx) {
    const plan = await skillStage(ctx, { name: 'config', detail: `${params.depth} research` }, () =>
      ctx.invokeSkill<ResearchPlan>('research.configure', params),
    );
    const found = await skillStage(
      ctx,
      { name: 'search', detail: `up to ${plan.rounds} round(s) of ${plan.queriesPerRound} queries` },
      () => ctx.invokeSkill<SearchOutput>('research.search', plan),
    );
    const base = { query: plan.query, depth: plan.depth, scenario: plan.scenario, queries: found.queries };
    if (found.sources.length === 0) {
      const report = `No sources were found for "${plan.query}" (queries tried: ${found.queries.join('; ')}).`;
      return { ...base, report, citations: [], invalidCitations: [], sources: [], synthesis: '' };
    }
    const step = { query: plan.query, guidance: plan.guidance, sources: found.sources };
    const { analysis } = await skillStage(
      ctx,
      { name: 'analyze', detail: `${found.sources.length} source(s)` },
      () => ctx.invokeSkill<{ analysis: string }>('research.analyze', step),
    );
    const { synthesis } = await skillStage(ctx, { name: 'synthesize' }, () =>
      ctx.invokeSkill<{ synthesis: string }>('research.synthesize', { ...step, analysis }),
    );
    const written = await skillStage(ctx, { name: 'write' }, () =>
      ctx.invokeSkill<CitedReport>('research.report', { ...step, synthesis }),
    );
    return { ...base, ...written, sources: found.sources, synthesis };
  },
});

/** Stores a research output in shared memory for the agents after it (findings and sources). */
export function rememberResearch(memory: SharedMemory, output: ResearchOutput): void {
  memory.set('researchFindings', output.synthesis || output.report);
  memory.set(
    'researchSources',
    output.sources.map(({ title, url, snippet }) => ({ title, url, snippet })),
  );
}
