import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineSkill,
  Executor,
  loadProjectInstructions,
  SkillRegistry,
  skillsIndex,
} from '../../src/index.js';
import { LocalProcessSandbox } from '../../src/sandbox/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const skill = (id: string, category: string, description: string) =>
  defineSkill({ id, category, description, parameters: z.object({}), output: z.string(), run: () => 'ok' });

const registry = new SkillRegistry({
  skills: [
    skill('summarize', 'writing', 'Summarise a text in a few sentences. Keeps names.'),
    skill('research', 'research', 'Research a question on the web'),
    skill('research.search', 'research', 'A pipeline step'),
    skill('outline', 'writing', 'Outline a document'),
  ],
});

describe('the skills index', () => {
  it('lists skills by category, one line each, first sentence only, pipeline steps left out', () => {
    expect(skillsIndex(registry)).toEqual({
      cache: true,
      text: [
        'Skills you can run with invoke_skill (list_skills gives their parameters):',
        'research:',
        '- research: Research a question on the web',
        'writing:',
        '- outline: Outline a document',
        '- summarize: Summarise a text in a few sentences.',
      ].join('\n'),
    });
  });

  it('counts what does not fit instead of listing it', () => {
    expect(skillsIndex(registry, { maxChars: 130 }).text.split('\n').at(-1)).toBe(
      '(2 more: call list_skills)',
    );
  });

  it('reaches the model as part of the system prompt', async () => {
    const model = new ScriptedModel([{ text: 'done' }]);
    const executor = new Executor({ model, instructions: [{ text: 'You help.' }, skillsIndex(registry)] });
    await executor.run('hi').result;
    expect(JSON.stringify(model.requests[0]!.system)).toContain('- outline: Outline a document');
  });
});

describe('project instructions', () => {
  let sandbox: LocalProcessSandbox;
  beforeAll(async () => {
    sandbox = await LocalProcessSandbox.create();
  });
  afterAll(() => sandbox.dispose());

  it('reads AGENTS.md and .cursorrules from the workspace under headings naming them', async () => {
    expect(await loadProjectInstructions(sandbox)).toBeUndefined();
    await sandbox.writeFile('AGENTS.md', '# Conventions\nUse tabs.\n');
    await sandbox.writeFile('.cursorrules', 'Never touch generated/.');
    expect(await loadProjectInstructions(sandbox)).toEqual({
      cache: true,
      text: '## Project instructions (AGENTS.md)\n\n# Conventions\nUse tabs.\n\n## Project instructions (.cursorrules)\n\nNever touch generated/.',
    });
  });

  it('cuts what passes the cap and says how much', async () => {
    await sandbox.writeFile('AGENTS.md', 'x'.repeat(50));
    const part = await loadProjectInstructions(sandbox, { files: ['AGENTS.md'], maxChars: 20 });
    expect(part?.text).toBe(
      `## Project instructions (AGENTS.md)\n\n${'x'.repeat(20)}\n[… 30 characters of AGENTS.md cut]`,
    );
  });
});
