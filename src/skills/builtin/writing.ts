/**
 * `writing` (seed 003's writing subagent): long-form content in the seed's
 * four phases — analyze → outline → write → finalize — one model call each.
 * The seed's streaming rules hold: the analysis and the outline are internal
 * (not streamed), the draft and the final text stream as `token` events.
 * @module
 */
import { z } from 'zod/v4';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';

const ANALYST =
  'You plan a piece of writing. From the request, state in a few short lines: the kind of text, its audience, its tone, its length, and the key points it must cover. No prose draft.';

const OUTLINER =
  'You outline a piece of writing in Markdown: a title, then a numbered list of sections, each with one line on what it says. Only the outline.';

const WRITER =
  'You write the full text in Markdown following the outline section by section, in the tone and length the analysis asks for. Use the supporting material given; invent no facts, figures or sources.';

const EDITOR =
  'You edit a draft into its final form: fix errors, tighten wording, keep the structure and every fact. Reply with the final text only, no comments about the edits.';

/** Output of `writing`. */
export const writingOutputSchema = z.object({
  task: z.string(),
  /** Kind, audience, tone, length and key points, as the analyze phase read the request. */
  analysis: z.string(),
  outline: z.string(),
  draft: z.string(),
  /** The final text. */
  content: z.string(),
});

/** What `writing` returns. */
export type WritingOutput = z.output<typeof writingOutputSchema>;

/** `writing`: an article, documentation, an essay… in four phases (analyze, outline, write, finalize). */
export const writingSkill = defineSkill({
  id: 'writing',
  name: 'Writing',
  description:
    'Write long-form content (articles, documentation, essays, reports): analyze the request, outline, write, then edit the final text',
  category: 'creative',
  tags: ['writing', 'articles', 'documentation', 'essays'],
  parameters: z.object({
    task: z.string().trim().min(1).describe('What to write, with the audience and purpose when known'),
    tone: z.string().optional().describe('The tone asked for, e.g. "formal", "friendly"'),
    material: z
      .string()
      .optional()
      .describe('Supporting material to draw on: research findings, notes, data results'),
  }),
  output: writingOutputSchema,
  async run({ task, tone, material }, ctx) {
    const request = [task, tone && `Tone: ${tone}`, material && `Supporting material:\n${material}`]
      .filter(Boolean)
      .join('\n\n');
    const analysis = await skillStage(ctx, { name: 'analyze' }, () =>
      ctx.generate(request, { system: ANALYST }),
    );
    const outline = await skillStage(ctx, { name: 'outline' }, () =>
      ctx.generate(`${request}\n\nAnalysis:\n${analysis}`, { system: OUTLINER }),
    );
    const draft = await skillStage(ctx, { name: 'write' }, () =>
      ctx.generate(`${request}\n\nAnalysis:\n${analysis}\n\nOutline:\n${outline}`, {
        system: WRITER,
        stream: true,
      }),
    );
    const content = await skillStage(ctx, { name: 'finalize' }, () =>
      ctx.generate(`Request:\n${task}\n\nDraft:\n${draft}`, { system: EDITOR, stream: true }),
    );
    return { task, analysis, outline, draft, content };
  },
});
