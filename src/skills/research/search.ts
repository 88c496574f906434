/**
 * The search loop (seed 002 `search_loop`): rounds of queries planned by the
 * model, each run through the pluggable search, hits deduplicated by URL into
 * a numbered sources list, a `source` event per new source.
 * @module
 */
import pLimit from 'p-limit';
import { errorMessage, isAbortError } from '../../core/errors.js';
import { abortErrorOf } from '../../core/run.js';
import { parseJSONLoose } from '../../model/json.js';
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import { stringifyOutput } from '../../tools/output.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { SkillError } from '../errors.js';
import { type ResearchPlan, researchPlanSchema } from './config.js';
import { researchZod } from './schemas.js';
import {
  formatSources,
  type SearchFunction,
  type SearchResult,
  type Source,
  SourceList,
  validHits,
} from './sources.js';

/** The search: a function, or the name of a tool (`{ query }` → hits) available to the registry. */
export type ResearchSearch = SearchFunction | string;

const QUERY_PLANNER =
  'You plan web searches. Reply only with a JSON array of search query strings, nothing else.';

/** Output of `research.search`. */
export interface SearchOutput {
  sources: Source[];
  queries: string[];
  failedQueries: { query: string; error: string }[];
}

/** Output of `research.search`. */
export const searchOutputSchema: LazySchema<SearchOutput> = lazySchema(
  (z) => researchZod.with(z).searchOutput,
);

/**
 * `research.search`: the search loop of a configured plan. A round's queries
 * run up to `concurrency` at once (default 1: one after another, as the seeds
 * do); their hits are taken in query order, so sources are numbered the same
 * however the searches finish.
 */
export function searchSkill(search: ResearchSearch, concurrency = 1) {
  return defineSkill({
    id: 'research.search',
    description:
      'Search the web in rounds for a configured research plan; returns numbered, deduplicated sources',
    category: 'research',
    parameters: researchPlanSchema,
    output: searchOutputSchema,
    requiredTools: typeof search === 'string' ? [search] : [],
    async run(plan, ctx) {
      const limit = pLimit(concurrency);
      const sources = new SourceList(plan.maxSources);
      const done = new Set<string>();
      const queries: string[] = [];
      const failedQueries: { query: string; error: string }[] = [];
      for (let round = 1; round <= plan.rounds && !sources.full; round++) {
        const planned = await planQueries(ctx, plan, { round, sources });
        const fresh = planned.filter((q) => !done.has(q.toLowerCase())).slice(0, plan.queriesPerRound);
        if (fresh.length === 0) break;
        for (const query of fresh) {
          done.add(query.toLowerCase());
          queries.push(query);
        }
        const searches = fresh.map((query) => limit(() => searchOnce(ctx, search, query)));
        for (const [i, searching] of searches.entries()) {
          const found = await searching;
          if ('aborted' in found) throw found.aborted;
          if ('failed' in found) {
            failedQueries.push({ query: fresh[i]!, error: found.failed });
            continue;
          }
          for (const hit of found.hits) {
            const source = sources.add(hit);
            if (source)
              ctx.emit.emit('source', { title: source.title, url: source.url, snippet: source.snippet });
          }
        }
      }
      if (sources.size === 0 && failedQueries.length > 0 && failedQueries.length === queries.length) {
        throw new SkillError(
          'failed',
          `Every search failed: ${failedQueries.map((f) => `"${f.query}": ${f.error}`).join('; ')}`,
          { skillId: ctx.skillId },
        );
      }
      return { sources: sources.list(), queries, failedQueries };
    },
  });
}

/** Where the search loop stands when a round's queries are planned. */
interface SearchProgress {
  /** The round about to run, from 1. */
  round: number;
  /** The sources found in the rounds before it. */
  sources: SourceList;
}

/** The model's queries for a round; the question itself when round 1 gets no usable reply. */
async function planQueries(
  ctx: SkillContext,
  plan: ResearchPlan,
  progress: SearchProgress,
): Promise<string[]> {
  const { round, sources } = progress;
  const found = sources.size > 0 ? `\n\nSources found so far:\n${formatSources(sources.list(), 120)}` : '';
  const ask =
    round === 1
      ? `Write up to ${plan.queriesPerRound} distinct web search queries that together answer the question.`
      : `Write up to ${plan.queriesPerRound} follow-up queries that fill the gaps the sources leave. Reply [] when they suffice.`;
  const reply = await ctx.generate(`Question: ${plan.query}\nFocus: ${plan.guidance}${found}\n\n${ask}`, {
    system: QUERY_PLANNER,
  });
  let parsed: unknown;
  try {
    parsed = parseJSONLoose(reply, { expect: 'array' });
  } catch {
    parsed = undefined;
  }
  const list = Array.isArray(parsed)
    ? parsed.filter((q): q is string => typeof q === 'string' && q.trim() !== '').map((q) => q.trim())
    : [];
  return list.length === 0 && round === 1 ? [plan.query] : list;
}

/** One query's hits, or why it has none; never rejects, so searches of a round left behind by an abort reject nowhere. */
async function searchOnce(
  ctx: SkillContext,
  search: ResearchSearch,
  query: string,
): Promise<{ hits: SearchResult[] } | { failed: string } | { aborted: unknown }> {
  // A search queued behind one the abort ended does not start.
  if (ctx.signal.aborted) return { aborted: abortErrorOf(ctx.signal) };
  try {
    return { hits: await runSearch(ctx, search, query) };
  } catch (error) {
    if (isAbortError(error) || ctx.signal.aborted) return { aborted: error };
    return { failed: errorMessage(error) };
  }
}

async function runSearch(ctx: SkillContext, search: ResearchSearch, query: string): Promise<SearchResult[]> {
  if (typeof search === 'string') return validHits(await ctx.callTool(search, { query }));
  const id = ctx.runtime.ids.next('call');
  const start = ctx.runtime.clock.now();
  const emit = ctx.emit;
  emit.emit('tool_call', { id, name: 'search', args: { query } });
  try {
    const hits = validHits(await search(query, { signal: ctx.signal }));
    const output = stringifyOutput(hits.map((h) => ({ title: h.title, url: h.url })));
    emit.emit('tool_result', {
      id,
      name: 'search',
      output,
      isError: false,
      durationMs: ctx.runtime.clock.now() - start,
    });
    return hits;
  } catch (error) {
    const output = `Error: ${errorMessage(error)}`;
    emit.emit('tool_result', {
      id,
      name: 'search',
      output,
      isError: true,
      durationMs: ctx.runtime.clock.now() - start,
    });
    throw error;
  }
}
