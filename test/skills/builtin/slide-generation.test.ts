import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { slideGenerationSkill, webResearchSkills } from '../../../src/skills/builtin/index.js';
import { SkillError, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { recorder } from '../helpers.js';
import { SANDBOXES, stages, withSandbox } from './helpers.js';

type SlidesOut = {
  file: string;
  slideCount: number;
  artifact: { path: string; mediaType: string; size: number };
};

const outline = {
  title: 'Rust in production',
  subtitle: 'What changes for a team',
  slides: [
    {
      title: 'Why Rust',
      bullets: ['Memory safety', 'Speed'],
      notes: 'Open with the two reasons teams adopt it.',
    },
    { title: 'Costs', bullets: ['Learning curve', 'Compile times'], notes: 'Be honest about the costs.' },
    { title: 'Adoption path', bullets: ['Start with a service', 'Measure'], notes: 'Close with a plan.' },
  ],
};

/** The slide and notes-slide XML files of a .pptx. */
async function unzipDeck(bytes: Uint8Array): Promise<{ slides: string[]; notes: string[] }> {
  const zip = await JSZip.loadAsync(bytes);
  const read = (pattern: RegExp) =>
    Promise.all(
      Object.keys(zip.files)
        .filter((name) => pattern.test(name))
        .sort()
        .map((name) => zip.file(name)!.async('string')),
    );
  return {
    slides: await read(/^ppt\/slides\/slide\d+\.xml$/),
    notes: await read(/^ppt\/notesSlides\/notesSlide\d+\.xml$/),
  };
}

describe.each(SANDBOXES)('slide_generation on a %s sandbox', (kind) => {
  it('writes a .pptx that unzips to the title slide plus one bullet slide per outline entry, with notes', async () => {
    const model = new ScriptedModel([
      { text: `Here you go:\n\`\`\`json\n${JSON.stringify(outline)}\n\`\`\`` },
    ]);
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({ skills: [slideGenerationSkill()], model, runtime });
    const { out, bytes } = await withSandbox(kind, async (sandbox) => {
      const out = await skills.invokeDirect<SlidesOut>(
        'slide_generation',
        { topic: 'Rust in production', slides: 3 },
        { emit: bus, sandbox },
      );
      return { out, bytes: await sandbox.readBytes!(out.file) };
    });
    expect(out.slideCount).toBe(4);
    expect(out.artifact).toEqual({
      path: out.file,
      mediaType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      size: bytes.length,
    });
    const deck = await unzipDeck(bytes);
    expect(deck.slides).toHaveLength(4);
    expect(deck.slides[0]).toContain('Rust in production');
    expect(deck.slides.join('')).toContain('Learning curve');
    expect(deck.notes.join('')).toContain('Be honest about the costs.');
    expect(stages(events).filter((s) => s.endsWith(':completed'))).toEqual([
      'outline:completed',
      'render:completed',
    ]);
  });
});

describe('slide_generation', () => {
  it('researches the topic first through web_research when asked, and outlines from the findings', async () => {
    const model = new ScriptedModel([
      { text: '["rust production adoption"]' },
      { text: 'Analysis [1].' },
      { text: 'Teams report fewer crashes [1].' },
      { text: 'Report [1].' },
      (request) => {
        expect(String(request.messages[0]?.content)).toContain('Teams report fewer crashes');
        return { text: JSON.stringify(outline) };
      },
    ]);
    const search = () => [{ title: 'Survey', url: 'https://example.org/survey', snippet: 'fewer crashes' }];
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({
      skills: [slideGenerationSkill(), ...webResearchSkills({ search })],
      model,
      runtime,
    });
    const out = await withSandbox('local', (sandbox) =>
      skills.invokeDirect<SlidesOut>(
        'slide_generation',
        { topic: 'Rust in production', slides: 2, research: true, file: 'talk.pptx' },
        { emit: bus, sandbox },
      ),
    );
    expect(out).toMatchObject({ file: 'talk.pptx', slideCount: 3 });
    const outputs = events.flatMap((e) => (e.type === 'skill_output' ? [`${e.skillId}@${e.depth}`] : []));
    expect(outputs).toContain('web_research@1');
    expect(outputs.at(-1)).toBe('slide_generation@0');
    model.assertConsumed();
  });

  it('re-asks once when the outline is not valid JSON', async () => {
    const model = new ScriptedModel([
      { text: 'Sure! Slides about Rust.' },
      (request) => {
        expect(String(request.messages[0]?.content)).toContain('the reply was not JSON');
        return { text: JSON.stringify(outline) };
      },
    ]);
    const skills = new SkillRegistry({ skills: [slideGenerationSkill()], model });
    const out = await withSandbox('local', (sandbox) =>
      skills.invokeDirect<SlidesOut>('slide_generation', { topic: 'Rust' }, { sandbox }),
    );
    expect(out.slideCount).toBe(4);
  });

  it('fails with missing_dependency naming pptxgenjs when the package is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package 'pptxgenjs'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const skill = slideGenerationSkill({ loadPptx: () => Promise.reject(missing) });
    const skills = new SkillRegistry({
      skills: [skill],
      model: new ScriptedModel([{ text: JSON.stringify(outline) }]),
    });
    const error = await withSandbox('local', (sandbox) =>
      skills.invokeDirect('slide_generation', { topic: 'Rust' }, { sandbox }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).cause).toMatchObject({ kind: 'missing_dependency' });
    expect((error as Error).message).toContain('npm install pptxgenjs');
  });
});
