import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  inferScenario,
  type ResearchOutput,
  researchSkills,
  resolveCitations,
  type SearchFunction,
  type SearchResult,
  SkillError,
  SkillRegistry,
  urlKey,
} from '../../src/skills/index.js';
import { flush, ScriptedModel } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { recorder } from './helpers.js';

const hit = (slug: string, url = `https://example.org/${slug}`): SearchResult => ({
  title: `About ${slug}`,
  url,
  snippet: `Snippet on ${slug}.`,
});

/** A search over a fixed index that records the queries it got. */
function scriptedSearch(index: Record<string, SearchResult[]>): SearchFunction & { queries: string[] } {
  const queries: string[] = [];
  const search = (query: string) => {
    queries.push(query);
    const results = index[query];
    if (!results) throw new Error(`search backend has no results for "${query}"`);
    return results;
  };
  return Object.assign(search, { queries });
}

describe('research pipeline, offline', () => {
  it('searches, dedupes sources by URL, emits source events and maps citations to the sources', async () => {
    const search = scriptedSearch({
      'crdt merge semantics': [
        hit('crdt'),
        hit('yjs'),
        hit('crdt', 'https://www.example.org/crdt/?utm_source=x'),
      ],
      'automerge vs yjs': [hit('automerge'), hit('yjs', 'https://example.org/yjs#intro')],
    });
    const model = new ScriptedModel([
      { text: '```json\n["crdt merge semantics", "automerge vs yjs"]\n```' },
      { text: 'Source [1] defines merges; [3] benchmarks Automerge.' },
      { text: 'CRDTs merge without coordination [1]; Automerge trades speed for history [3].' },
      {
        text: '# CRDT merging\n\nCRDTs merge without coordination [3]. Automerge keeps history [3, 1]. A claim [9].',
      },
    ]);
    const { runtime, bus, events, ofType } = recorder();
    const skills = new SkillRegistry({ skills: researchSkills({ search }), model, runtime });
    const out = await skills.invokeDirect<ResearchOutput>(
      'research',
      { query: 'How do CRDTs merge concurrent edits?', depth: 'quick' },
      { emit: bus },
    );

    expect(search.queries).toEqual(['crdt merge semantics', 'automerge vs yjs']);
    expect(out.sources.map((s) => [s.n, s.url])).toEqual([
      [1, 'https://example.org/crdt'],
      [2, 'https://example.org/yjs'],
      [3, 'https://example.org/automerge'],
    ]);
    expect(ofType('source').map((e) => e.url)).toEqual(out.sources.map((s) => s.url));
    expect(out.citations).toEqual([
      {
        n: 1,
        title: 'About automerge',
        url: 'https://example.org/automerge',
        snippet: 'Snippet on automerge.',
      },
      { n: 2, title: 'About crdt', url: 'https://example.org/crdt', snippet: 'Snippet on crdt.' },
    ]);
    expect(out.invalidCitations).toEqual([9]);
    expect(out.report).toBe(
      '# CRDT merging\n\nCRDTs merge without coordination [1]. Automerge keeps history [1, 2]. A claim.\n\n' +
        '## Sources\n\n[1] About automerge — https://example.org/automerge\n[2] About crdt — https://example.org/crdt',
    );
    expect(out).toMatchObject({ depth: 'quick', scenario: 'technical', queries: search.queries });

    // The analyst saw every source by number; the writer's reply was streamed as tokens.
    expect(model.requests[1]!.messages[0]!.content).toContain(
      '[3] About automerge — https://example.org/automerge',
    );
    expect(
      ofType('token')
        .map((e) => e.delta)
        .join(''),
    ).toContain('# CRDT merging');
    expect(ofType('skill_output').map((e) => [e.skillId, e.depth])).toEqual([
      ['research.configure', 1],
      ['research.search', 1],
      ['research.analyze', 1],
      ['research.synthesize', 1],
      ['research.report', 1],
      ['research', 0],
    ]);
    expect(
      ofType('stage')
        .filter((e) => e.status === 'running')
        .map((e) => e.name),
    ).toEqual(['config', 'search', 'analyze', 'synthesize', 'write']);
    expectInvariants(events, { terminal: false });
    model.assertConsumed();
  });

  it('runs follow-up rounds at standard depth and stops when the model asks for none', async () => {
    const search = scriptedSearch({ a: [hit('a')], b: [hit('b')], c: [hit('c')], 'follow up': [hit('d')] });
    const model = new ScriptedModel([
      { text: '["a", "b", "c", "a"]' },
      (request) => {
        expect(request.messages[0]!.content).toContain('Sources found so far:\n[1] About a');
        return { text: '["follow up", "b"]' };
      },
      { text: 'analysis' },
      { text: 'synthesis' },
      { text: 'Report [4].' },
    ]);
    const skills = new SkillRegistry({ skills: researchSkills({ search }), model });
    const out = await skills.invokeDirect<ResearchOutput>('research', { query: 'q', depth: 'standard' });
    expect(search.queries).toEqual(['a', 'b', 'c', 'follow up']);
    expect(out.sources).toHaveLength(4);
    expect(out.citations.map((c) => c.url)).toEqual(['https://example.org/d']);

    const stops = new ScriptedModel([
      { text: '["a"]' },
      { text: '[]' },
      { text: 'x' },
      { text: 'y' },
      { text: 'z' },
    ]);
    const early = new SkillRegistry({
      skills: researchSkills({ search: scriptedSearch({ a: [hit('a')] }) }),
      model: stops,
    });
    expect((await early.invokeDirect<ResearchOutput>('research', { query: 'q' })).queries).toEqual(['a']);
    stops.assertConsumed();
  });

  it('searches the question itself when the query plan is not JSON, and honours the source cap', async () => {
    const search = scriptedSearch({ 'what is x?': ['1', '2', '3', '4', '5', '6', '7'].map((n) => hit(n)) });
    const model = new ScriptedModel([
      { text: 'Sorry, I cannot.' },
      { text: 'a' },
      { text: 's' },
      { text: 'r' },
    ]);
    const skills = new SkillRegistry({ skills: researchSkills({ search }), model });
    const out = await skills.invokeDirect<ResearchOutput>('research', {
      query: 'what is x?',
      depth: 'quick',
    });
    expect(search.queries).toEqual(['what is x?']);
    expect(out.sources).toHaveLength(5);
  });

  it('goes on when one query fails, and fails typed when every query fails', async () => {
    const partial = scriptedSearch({ good: [hit('g')] });
    const model = new ScriptedModel([
      { text: '["bad", "good"]' },
      { text: 'a' },
      { text: 's' },
      { text: 'r [1]' },
    ]);
    const { bus, events, ofType } = recorder();
    const ok = new SkillRegistry({ skills: researchSkills({ search: partial }), model });
    const out = await ok.invokeDirect<ResearchOutput>(
      'research',
      { query: 'q', depth: 'quick' },
      { emit: bus },
    );
    expect(out.citations.map((c) => c.title)).toEqual(['About g']);
    expect(ofType('tool_result').map((e) => e.isError)).toEqual([true, false]);
    expectInvariants(events, { terminal: false });

    const none = new SkillRegistry({
      skills: researchSkills({ search: scriptedSearch({}) }),
      model: new ScriptedModel([{ text: '["x"]' }]),
    });
    const error = await none
      .invokeDirect('research', { query: 'q', depth: 'quick' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillError);
    expect(error).toMatchObject({ kind: 'failed', skillId: 'research.search' });
    expect((error as Error).message).toContain('Every search failed: "x": search backend has no results');
  });

  it('reports that nothing was found without further model calls', async () => {
    const model = new ScriptedModel([{ text: '["x"]' }]);
    const skills = new SkillRegistry({
      skills: researchSkills({ search: scriptedSearch({ x: [] }) }),
      model,
    });
    const out = await skills.invokeDirect<ResearchOutput>('research', { query: 'obscure', depth: 'quick' });
    expect(out).toMatchObject({
      sources: [],
      citations: [],
      report: 'No sources were found for "obscure" (queries tried: x).',
    });
    model.assertConsumed();
  });

  it('uses a registry tool as the search and requires it', async () => {
    const webSearch = defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string() }),
      execute: ({ query }) => [hit(query.replace(/\s+/g, '-')), { bogus: true }],
    });
    const model = new ScriptedModel([
      { text: '["one thing"]' },
      { text: 'a' },
      { text: 's' },
      { text: 'r [1]' },
    ]);
    const withTool = new SkillRegistry({
      skills: researchSkills({ search: 'web_search' }),
      tools: [webSearch],
      model,
    });
    const out = await withTool.invokeDirect<ResearchOutput>('research', { query: 'q', depth: 'quick' });
    expect(out.sources.map((s) => s.url)).toEqual(['https://example.org/one-thing']);
    const without = new SkillRegistry({
      skills: researchSkills({ search: 'web_search' }),
      model: new ScriptedModel([]),
    });
    await expect(
      without.invokeDirect('research.search', {
        query: 'q',
        depth: 'quick',
        scenario: 'news',
        queriesPerRound: 1,
        rounds: 1,
        maxSources: 1,
        guidance: '',
      }),
    ).rejects.toMatchObject({ kind: 'missing_tools' });
  });
});

describe('research configuration', () => {
  it('maps depth to the search budget and scenario to the prompt focus, inferring the scenario', async () => {
    const skills = new SkillRegistry({ skills: researchSkills({ search: () => [] }) });
    expect(
      await skills.invokeDirect('research.configure', {
        query: 'Latest news on the EU AI Act',
        depth: 'deep',
      }),
    ).toMatchObject({
      depth: 'deep',
      scenario: 'news',
      queriesPerRound: 4,
      rounds: 3,
      maxSources: 20,
      guidance: expect.stringContaining('News research'),
    });
    expect(await skills.invokeDirect('research.configure', { query: 'x', scenario: 'market' })).toMatchObject(
      {
        depth: 'standard',
        scenario: 'market',
        rounds: 2,
      },
    );
    expect(inferScenario('peer-reviewed studies of sleep')).toBe('academic');
    expect(inferScenario('pricing of vector databases')).toBe('market');
    expect(inferScenario('how does io_uring work')).toBe('technical');
  });

  it('takes custom depth budgets', async () => {
    const skills = new SkillRegistry({
      skills: researchSkills({
        search: () => [],
        depths: { quick: { queriesPerRound: 1, rounds: 1, maxSources: 2 } },
      }),
    });
    expect(await skills.invokeDirect('research.configure', { query: 'x', depth: 'quick' })).toMatchObject({
      maxSources: 2,
    });
  });
});

describe('citations and URLs', () => {
  const sources = [1, 2, 3].map((n) => ({ n, title: `T${n}`, url: `https://s/${n}`, snippet: '' }));

  it('renumbers citations in order of first use and leaves Markdown links alone', () => {
    const { report, citations } = resolveCitations('See [2] and [docs](https://d). Also [2,3].', sources);
    expect(report).toBe(
      'See [1] and [docs](https://d). Also [1, 2].\n\n## Sources\n\n[1] T2 — https://s/2\n[2] T3 — https://s/3',
    );
    expect(citations.map((c) => c.url)).toEqual(['https://s/2', 'https://s/3']);
  });

  it('adds no Sources section when nothing valid is cited', () => {
    expect(resolveCitations('Nothing [0] cited.', sources)).toEqual({
      report: 'Nothing cited.',
      citations: [],
      invalidCitations: [0],
    });
  });

  it('treats URLs differing only in www, case, fragment, trailing slash or tracking as one page', () => {
    const key = urlKey('https://example.org/a');
    for (const url of [
      'https://WWW.Example.org/a/',
      'http://example.org/a#top',
      'https://example.org/a?utm_medium=x&fbclid=1',
    ]) {
      expect(urlKey(url)).toBe(key);
    }
    expect(urlKey('https://example.org/a?page=2')).not.toBe(key);
  });
});

describe('research search fan-out', () => {
  const plan = {
    query: 'q',
    depth: 'quick',
    scenario: 'technical',
    queriesPerRound: 3,
    rounds: 1,
    maxSources: 10,
    guidance: '',
  };

  it('runs up to `searchConcurrency` searches of a round at once and numbers sources in query order', async () => {
    const pending = new Map<string, (hits: SearchResult[]) => void>();
    const search: SearchFunction = (query) => new Promise((resolve) => pending.set(query, resolve));
    const model = new ScriptedModel([{ text: '["a", "b", "c"]' }]);
    const skills = new SkillRegistry({ skills: researchSkills({ search, searchConcurrency: 2 }), model });
    const out = skills.invokeDirect<{ sources: { n: number; url: string }[] }>('research.search', plan);
    await flush();
    expect([...pending.keys()]).toEqual(['a', 'b']);
    pending.get('b')!([hit('b')]);
    await flush();
    expect([...pending.keys()]).toEqual(['a', 'b', 'c']);
    pending.get('c')!([hit('c')]);
    pending.get('a')!([hit('a')]);
    expect((await out).sources.map((s) => [s.n, s.url])).toEqual([
      [1, 'https://example.org/a'],
      [2, 'https://example.org/b'],
      [3, 'https://example.org/c'],
    ]);
  });

  it('runs one search at a time by default', async () => {
    const pending = new Map<string, (hits: SearchResult[]) => void>();
    const search: SearchFunction = (query) => new Promise((resolve) => pending.set(query, resolve));
    const model = new ScriptedModel([{ text: '["a", "b"]' }]);
    const skills = new SkillRegistry({ skills: researchSkills({ search }), model });
    const out = skills.invokeDirect('research.search', { ...plan, queriesPerRound: 2 });
    await flush();
    expect([...pending.keys()]).toEqual(['a']);
    pending.get('a')!([hit('a')]);
    await flush();
    expect([...pending.keys()]).toEqual(['a', 'b']);
    pending.get('b')!([]);
    await out;
  });
});
