/**
 * The `slide_generation` built-in skill, offline: the scripted model writes
 * an outline, and pptxgenjs (an optional peer: `npm install pptxgenjs`)
 * renders it as a real .pptx — a title slide, then bullet slides with
 * speaker notes — in the sandbox's workspace.
 *
 *   npx tsx examples/skills-slide-generation.ts
 */
import { SkillRegistry } from 'tandem-agents';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { slideGenerationSkill } from 'tandem-agents/skills';
import { ScriptedModel } from 'tandem-agents/testing';

const model = new ScriptedModel([
  {
    text: JSON.stringify({
      title: 'Home composting',
      subtitle: 'Less waste, better soil',
      slides: [
        {
          title: 'Why compost',
          bullets: ['A third of household waste is organic', 'Free fertiliser'],
          notes: 'Start with what ends up in the bin.',
        },
        {
          title: 'Getting started',
          bullets: ['Greens and browns', 'Keep it moist', 'Turn it monthly'],
          notes: 'Walk through the three habits.',
        },
        {
          title: 'Common mistakes',
          bullets: ['Too wet', 'Meat and dairy'],
          notes: 'End with the two mistakes that cause smells.',
        },
      ],
    }),
  },
]);

const sandbox = await LocalProcessSandbox.create();
try {
  const skills = new SkillRegistry({ skills: [slideGenerationSkill()], model });
  const deck = await skills.invokeDirect<{ file: string; slideCount: number; artifact: { size: number } }>(
    'slide_generation',
    { topic: 'Home composting for beginners', slides: 3 },
    { sandbox },
  );
  const bytes = await sandbox.readBytes(deck.file);
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b ? 'a zip (PK)' : 'not a zip';
  console.log(`wrote ${deck.file}: ${deck.slideCount} slides, ${deck.artifact.size} bytes, ${zip}`);
} finally {
  await sandbox.dispose();
}
