/**
 * The report (seed 002 `write_report`): the model writes it citing sources as
 * [n]; the citations are then checked against the sources list, renumbered in
 * the order they first appear, and listed under "Sources".
 * @module
 */
import { type LazySchema, lazySchema } from '../../model/lazy-zod.js';
import { defineSkill } from '../define-skill.js';
import { researchZod } from './schemas.js';
import { formatSources, type Source } from './sources.js';

const WRITER =
  'You write research reports in Markdown: a title, a short summary, sections with findings, and a conclusion. Support every factual claim with citations [n] using the numbers of the sources given; cite only those numbers. Do not add a sources or references section: it is added for you.';

const CITATION = /([ \t]*)\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g;

/** A report with its citations resolved. */
export interface CitedReport {
  /** The text with citations renumbered and invalid ones removed, plus a "Sources" section. */
  report: string;
  /** The cited sources, numbered as the report cites them. */
  citations: Source[];
  /** Numbers the writer cited that no source has. */
  invalidCitations: number[];
}

/**
 * Resolves the `[n]` / `[n, m]` citations of `text` against `sources` (by
 * their `n`): cited sources are renumbered 1, 2, … in order of first
 * appearance, numbers without a source are dropped, and a `## Sources` list
 * maps every number to its title and URL.
 */
export function resolveCitations(text: string, sources: readonly Source[]): CitedReport {
  const byN = new Map(sources.map((s) => [s.n, s]));
  const renumber = new Map<number, number>();
  const citations: Source[] = [];
  const invalid = new Set<number>();
  const body = text.replace(CITATION, (_match, lead: string, list: string) => {
    const numbers: number[] = [];
    for (const part of list.split(',')) {
      const n = Number(part.trim());
      const source = byN.get(n);
      if (!source) {
        invalid.add(n);
        continue;
      }
      let mapped = renumber.get(n);
      if (mapped === undefined) {
        mapped = citations.length + 1;
        renumber.set(n, mapped);
        citations.push({ ...source, n: mapped });
      }
      if (!numbers.includes(mapped)) numbers.push(mapped);
    }
    return numbers.length > 0 ? `${lead}[${numbers.join(', ')}]` : '';
  });
  const cleaned = body.trimEnd();
  const list = citations.map((s) => `[${s.n}] ${s.title} — ${s.url}`).join('\n');
  const report = citations.length > 0 ? `${cleaned}\n\n## Sources\n\n${list}` : cleaned;
  return { report, citations, invalidCitations: [...invalid].sort((a, b) => a - b) };
}

/** Output of `research.report`. */
export const reportOutputSchema: LazySchema<CitedReport> = lazySchema((z) => researchZod.with(z).report);

/** `research.report`: writes the report (streamed) and resolves its citations. */
export const reportSkill = defineSkill({
  id: 'research.report',
  description: 'Write a Markdown research report with numbered citations mapped to the sources',
  category: 'research',
  parameters: lazySchema((z) => researchZod.with(z).reportParams),
  output: reportOutputSchema,
  async run({ query, guidance, sources, synthesis }, ctx) {
    const prompt = `Question: ${query}\nFocus: ${guidance}\n\nSources:\n${formatSources(sources, 200)}\n\nSynthesis:\n${synthesis}\n\nWrite the report.`;
    const text = await ctx.generate(prompt, { system: WRITER, stream: true });
    return resolveCitations(text, sources);
  },
});
