import { describe, expect, it } from 'vitest';
import { LocalProcessSandbox } from '../../../src/sandbox/local.js';
import { codeGenerationSkill } from '../../../src/skills/builtin/index.js';
import { SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { recorder } from '../helpers.js';
import { SANDBOXES, stages, withSandbox } from './helpers.js';

type CodeOut = {
  code: string;
  tests: string;
  files: string[];
  executed: boolean;
  passed: boolean;
  attempts: number;
  testOutput: { exitCode: number | null; stdout: string; stderr: string } | null;
  note?: string;
};

const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;
const PY_TESTS =
  'from solution import slugify\nassert slugify("Hello  World") == "hello-world"\nprint("2 passed")\n';
// The fix is exactly as long as the bug: a bytecode cache keyed on size and mtime would run the bug again.
const buggy = fence('python', 'def slugify(text):\n    return text.lower().replace(" ", "-")\n');
const fixed = fence('python', 'def slugify(text):\n    return "-".join(text.lower().split())\n');

describe.each(SANDBOXES)('code_generation on a %s sandbox', (kind) => {
  it('runs the tests, sends the failure back, and returns the fixed code with its passing test output', async () => {
    const model = new ScriptedModel([
      { text: `${buggy}\n${fence('python', PY_TESTS)}` },
      (request) => {
        expect(String(request.messages[0]?.content)).toContain('AssertionError');
        return { text: `${fixed}\n${fence('python', PY_TESTS)}` };
      },
    ]);
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({ skills: [codeGenerationSkill], model, runtime });
    const out = await withSandbox(kind, async (sandbox) => {
      const result = await skills.invokeDirect<CodeOut>(
        'code_generation',
        { task: 'slugify a title' },
        { emit: bus, sandbox },
      );
      expect(await sandbox.readFile(result.files[0]!)).toContain('"-".join');
      return result;
    });
    expect(out).toMatchObject({ executed: true, passed: true, attempts: 2 });
    expect(out.files.map((f) => f.split('/').pop())).toEqual(['solution.py', 'test_solution.py']);
    expect(out.testOutput).toMatchObject({ exitCode: 0, stdout: '2 passed\n' });
    expect(stages(events).filter((s) => s.endsWith(':running'))).toEqual([
      'write:running',
      'execute:running',
      'repair:running',
      'execute:running',
    ]);
  });
});

describe('code_generation', () => {
  it('writes and tests JavaScript with node', async () => {
    const solution = 'module.exports.add = (a, b) => a + b;';
    const tests =
      "const assert = require('node:assert');\nconst { add } = require('./solution.cjs');\nassert.equal(add(2, 3), 5);\nconsole.log('ok');";
    const model = new ScriptedModel([
      { text: `${fence('javascript', solution)}\n${fence('javascript', tests)}` },
    ]);
    const skills = new SkillRegistry({ skills: [codeGenerationSkill], model });
    const out = await withSandbox('local', (sandbox) =>
      skills.invokeDirect<CodeOut>(
        'code_generation',
        { task: 'add two numbers', language: 'javascript' },
        { sandbox },
      ),
    );
    expect(out).toMatchObject({ executed: true, passed: true, attempts: 1, code: `${solution}\n` });
    expect(out.testOutput?.stdout).toBe('ok\n');
  });

  it('returns passed: false with the last test output when every attempt fails', async () => {
    const model = new ScriptedModel([{ text: `${buggy}\n${fence('python', PY_TESTS)}` }]);
    const skills = new SkillRegistry({ skills: [codeGenerationSkill], model });
    const out = await withSandbox('local', (sandbox) =>
      skills.invokeDirect<CodeOut>('code_generation', { task: 'slugify', attempts: 1 }, { sandbox }),
    );
    expect(out).toMatchObject({ executed: true, passed: false, attempts: 1 });
    expect(out.testOutput?.stderr).toContain('AssertionError');
  });

  it('returns the code unexecuted, saying why, when the sandbox has no runtime for the language', async () => {
    const model = new ScriptedModel([{ text: `${fixed}\n${fence('python', PY_TESTS)}` }]);
    const skills = new SkillRegistry({ skills: [codeGenerationSkill], model });
    const sandbox = await LocalProcessSandbox.create({ path: '/nonexistent' });
    try {
      const out = await skills.invokeDirect<CodeOut>('code_generation', { task: 'slugify' }, { sandbox });
      expect(out).toMatchObject({ executed: false, passed: false, testOutput: null, files: [] });
      expect(out.note).toBe('Not executed: python3 is not available in the sandbox');
      expect(out.tests.trim()).toBe(PY_TESTS.trim());
    } finally {
      await sandbox.dispose();
    }
  });

  it('returns the code unexecuted without a sandbox', async () => {
    const model = new ScriptedModel([{ text: fixed }]);
    const skills = new SkillRegistry({ skills: [codeGenerationSkill], model });
    const out = await skills.invokeDirect<CodeOut>('code_generation', { task: 'slugify' });
    expect(out).toMatchObject({ executed: false, tests: '', note: 'Not executed: no sandbox was given' });
  });
});
