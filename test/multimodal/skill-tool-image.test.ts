import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toBase64 } from '../../src/core/media.js';
import { defineSkill, SkillRegistry } from '../../src/skills/index.js';
import { defineTool } from '../../src/tools/types.js';
import { recorder } from '../skills/helpers.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

describe('a skill calling a tool that returns an image', () => {
  it('gets the tool’s value, and the tool_result event shows the image’s size and type, not its bytes', async () => {
    const camera = defineTool({
      name: 'camera',
      description: 'Takes a picture',
      parameters: z.object({}),
      execute: () => ({
        content: 'Took a picture.',
        attachments: [{ type: 'image', mediaType: 'image/png', data: PNG }],
      }),
    });
    const snap = defineSkill({
      id: 'snap',
      description: 'takes a picture',
      category: 'test',
      parameters: z.object({}),
      output: z.string(),
      requiredTools: ['camera'],
      run: async (_, ctx) => (await ctx.callTool<{ content: string }>('camera', {})).content,
    });
    const { runtime, bus, events, ofType } = recorder();
    const skills = new SkillRegistry({ skills: [snap], tools: [camera], runtime });
    expect(await skills.invokeDirect('snap', {}, { emit: bus })).toBe('Took a picture.');
    expect(ofType('tool_result')[0]).toMatchObject({
      output: 'Took a picture.',
      attachments: [{ type: 'image', mediaType: 'image/png', bytes: 11 }],
    });
    expect(JSON.stringify(events)).not.toContain(toBase64(PNG));
  });
});
