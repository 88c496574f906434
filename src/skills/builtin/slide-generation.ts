/**
 * `slide_generation` (seed 002): an outline of a talk on a topic — from
 * research findings when given or asked for — rendered as a real `.pptx`
 * (title slide, bullet slides with speaker notes) in the workspace.
 * @module
 */
import { z } from 'zod/v4';
import { parseJSONLoose } from '../../model/json.js';
import { issueLines } from '../../model/schema.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';
import { BuiltinSkillError } from './errors.js';
import { loadPptxGenJS, type Outline, outlineSchema, type PptxLoader, renderDeck } from './slide-render.js';
import { artifactSchema, invocationDir, mediaTypeOf, requireSandbox, workspacePath } from './support.js';

/** Options of {@link slideGenerationSkill}. */
export interface SlideGenerationOptions {
  /** Loads pptxgenjs. Default: `import('pptxgenjs')`. */
  loadPptx?: PptxLoader;
  /** The skill that researches the topic with `{ query }` when `research: true`. Default `web_research`. */
  researchSkill?: string;
}

const OUTLINER = (slides: number) => `You outline presentations. Reply with JSON only:
{"title": "...", "subtitle": "...", "slides": [{"title": "...", "bullets": ["...", "..."], "notes": "what the speaker says"}]}
Exactly ${slides} slides after the title slide, 3 to 5 short bullets each, and speaker notes of 2 to 4 sentences.`;

/** Output of `slide_generation`. */
export const slideGenerationOutputSchema = z.object({
  topic: z.string(),
  /** The `.pptx`, relative to the workspace. */
  file: z.string(),
  /** Slides in the file, the title slide included. */
  slideCount: z.number().int(),
  outline: outlineSchema,
  artifact: artifactSchema,
});

/** `slide_generation`, rendering with `options.loadPptx`. */
export function slideGenerationSkill(options: SlideGenerationOptions = {}) {
  const load = options.loadPptx ?? loadPptxGenJS;
  const researchId = options.researchSkill ?? 'web_research';
  return defineSkill({
    id: 'slide_generation',
    name: 'Slide generation',
    description:
      'Create a PowerPoint (.pptx) presentation on a topic: outline (optionally from research), title slide, bullet slides with speaker notes',
    category: 'creative',
    tags: ['pptx', 'presentation', 'slides'],
    risk: 'moderate',
    parameters: z.object({
      topic: z.string().trim().min(1).describe('What the presentation is about'),
      slides: z.number().int().min(1).max(20).default(6).describe('Content slides after the title slide'),
      findings: z.string().optional().describe('Research findings to build the outline from'),
      research: z.boolean().default(false).describe(`Research the topic first (the ${researchId} skill)`),
      file: z.string().optional().describe('Where to write the .pptx; default slides/<id>/deck.pptx'),
    }),
    output: slideGenerationOutputSchema,
    async run({ topic, slides, findings, research, file }, ctx) {
      const sandbox = requireSandbox(ctx);
      const target =
        file === undefined ? `${invocationDir(ctx, 'slides')}/deck.pptx` : workspacePath(ctx, file);
      const notes =
        findings ??
        (research
          ? await skillStage(ctx, { name: 'research', detail: researchId }, () =>
              researchFindings(ctx, researchId, topic),
            )
          : undefined);
      const outline = await skillStage(ctx, { name: 'outline', detail: `${slides} slide(s)` }, () =>
        outlineOf(ctx, { topic, slides, findings: notes }),
      );
      const bytes = await skillStage(ctx, { name: 'render', detail: target }, () =>
        renderDeck(outline, load, { skillId: ctx.skillId }),
      );
      await sandbox.writeFile(target, bytes);
      const artifact = { path: target, mediaType: mediaTypeOf(target), size: bytes.length };
      return { topic, file: target, slideCount: outline.slides.length + 1, outline, artifact };
    },
  });
}

async function researchFindings(ctx: SkillContext, skill: string, topic: string): Promise<string> {
  const out = await ctx.invokeSkill<{ synthesis?: string; report?: string }>(skill, {
    query: topic,
    depth: 'quick',
  });
  return out.synthesis || out.report || '';
}

/** What one outline is asked for. */
interface OutlineRequest {
  topic: string;
  /** Content slides wanted; extra ones in the reply are dropped. */
  slides: number;
  /** Research findings to build on, when there are any. */
  findings?: string;
}

/** The model's outline; one re-ask with the problems when the first reply is unusable. */
async function outlineOf(ctx: SkillContext, request: OutlineRequest): Promise<Outline> {
  const { topic, slides, findings } = request;
  const base = `Topic: ${topic}${findings ? `\n\nResearch findings to build on:\n${findings.slice(0, 6000)}` : ''}`;
  let prompt = base;
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await ctx.generate(prompt, { system: OUTLINER(slides) });
    let value: unknown;
    try {
      value = parseJSONLoose(reply, { expect: 'object' });
    } catch {
      value = undefined;
    }
    const parsed = outlineSchema.safeParse(value);
    if (parsed.success) return { ...parsed.data, slides: parsed.data.slides.slice(0, slides) };
    problem = value === undefined ? 'the reply was not JSON' : issueLines(parsed.error.issues).join('; ');
    prompt = `${base}\n\nYour previous reply was unusable (${problem}). Reply with the JSON outline only.`;
  }
  throw new BuiltinSkillError('invalid_reply', ctx.skillId, `No usable outline from the model: ${problem}`);
}
