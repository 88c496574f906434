import { describe, expect, it } from 'vitest';
import { builtinSkills, DEDICATED_MODE_SKILLS } from '../../../src/skills/builtin/index.js';
import { createSkillTools, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedImageModel, ScriptedModel } from '../../../src/testing/index.js';
import { validateSchema } from '../../../src/tools/schema.js';
import { recorder } from '../helpers.js';
import { toolContext, withSandbox } from './helpers.js';

const search = () => [{ title: 'A', url: 'https://example.org/a', snippet: 'a' }];
const all = () => builtinSkills({ search, imageModel: new ScriptedImageModel() });

describe('builtinSkills', () => {
  it('registers the seven seed skills, with the research steps web_research composes', () => {
    const ids = new SkillRegistry({ skills: all() }).ids();
    for (const id of [
      'data_analysis',
      'code_generation',
      'app_builder',
      'slide_generation',
      'web_research',
      'task_planning',
      'image_generation',
    ]) {
      expect(ids).toContain(id);
    }
    expect(ids).toContain('research.search');
  });

  it('leaves out web_research without a search and image_generation without an image model', () => {
    const ids = builtinSkills().map((s) => s.id);
    expect(ids).toEqual([
      'data_analysis',
      'code_generation',
      'app_builder',
      'slide_generation',
      'task_planning',
    ]);
  });

  it('marks the skills that run code or start servers risky', () => {
    const risk = Object.fromEntries(all().map((s) => [s.id, s.risk]));
    expect(risk).toMatchObject({
      data_analysis: 'risky',
      code_generation: 'risky',
      app_builder: 'risky',
      slide_generation: 'moderate',
      image_generation: 'moderate',
      task_planning: 'safe',
      web_research: 'safe',
    });
    const [invoke] = createSkillTools(new SkillRegistry({ skills: all() }));
    expect(invoke?.risk).toBe('risky');
  });

  it('maps every dedicated mode to a registered skill that accepts the task as its parameter', async () => {
    const registry = new SkillRegistry({ skills: all() });
    expect(Object.keys(DEDICATED_MODE_SKILLS).sort()).toEqual(['app', 'data', 'image', 'research', 'slide']);
    for (const { skill, param } of Object.values(DEDICATED_MODE_SKILLS)) {
      const found = registry.get(skill);
      expect(found, skill).toBeDefined();
      expect((await validateSchema(found!.parameters, { [param]: 'the task' })).success, skill).toBe(true);
    }
  });
});

describe('built-in skills through invoke_skill', () => {
  it('runs code_generation for a model and answers JSON with the skill output', async () => {
    const model = new ScriptedModel([{ text: '```python\nprint(6 * 7)\n```' }]);
    const { bus, events } = recorder();
    const [invoke] = createSkillTools(new SkillRegistry({ skills: builtinSkills(), model }));
    const answer = await withSandbox('local', async (sandbox) =>
      invoke!.execute(
        { skill_id: 'code_generation', params: { task: 'print 42' } },
        toolContext(bus, sandbox),
      ),
    );
    const parsed = JSON.parse(String(answer));
    expect(parsed).toMatchObject({ skill_id: 'code_generation', success: true, output: { passed: true } });
    expect(parsed.output.testOutput.stdout).toBe('42\n');
    expect(events.find((e) => e.type === 'skill_output')).toMatchObject({ parentId: 'call_1', depth: 0 });
  });

  it('answers web_research with the research pipeline output under the seed id', async () => {
    const model = new ScriptedModel([
      { text: '["q"]' },
      { text: 'analysis [1]' },
      { text: 'synthesis [1]' },
      { text: 'Report [1].' },
    ]);
    const { bus } = recorder();
    const [invoke] = createSkillTools(new SkillRegistry({ skills: builtinSkills({ search }), model }));
    const answer = JSON.parse(
      String(
        await invoke!.execute(
          { skill_id: 'web_research', params: { query: 'q', depth: 'quick' } },
          toolContext(bus),
        ),
      ),
    );
    expect(answer).toMatchObject({ success: true, output: { query: 'q', synthesis: 'synthesis [1]' } });
    expect(answer.output.report).toContain('## Sources');
  });
});
