/**
 * The `image_generation` built-in skill over the `ImageModel` seam: offline
 * on a `ScriptedImageModel`, or on OpenAI's gpt-image-1 when OPENAI_API_KEY
 * is set. The images are written into the sandbox's workspace and returned
 * as artifacts (and inline image parts when small).
 *
 *   npx tsx examples/skills-image-generation.ts
 */
import { type ImageModel, SkillRegistry } from 'tandem-agents';
import { createOpenAIImageModel } from 'tandem-agents/openai';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { imageGenerationSkill } from 'tandem-agents/skills';
import { ScriptedImageModel } from 'tandem-agents/testing';

const model: ImageModel = process.env.OPENAI_API_KEY
  ? createOpenAIImageModel('gpt-image-1', { settings: { size: '1024x1024', quality: 'low' } })
  : new ScriptedImageModel();

const sandbox = await LocalProcessSandbox.create();
try {
  const skills = new SkillRegistry({ skills: [imageGenerationSkill({ model })] });
  const out = await skills.invokeDirect<{
    artifacts: { path: string; mediaType: string; size: number }[];
    images: unknown[];
  }>('image_generation', { prompt: 'a lighthouse at dawn, watercolour', n: 2 }, { sandbox });
  for (const file of out.artifacts) console.log(`${file.path} (${file.mediaType}, ${file.size} bytes)`);
  console.log(`${out.artifacts.length} image file(s) from ${model.id}, ${out.images.length} inline`);
} finally {
  await sandbox.dispose();
}
