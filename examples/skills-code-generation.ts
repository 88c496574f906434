/**
 * The `code_generation` built-in skill, offline: the scripted model writes a
 * function and its tests; the tests fail, the failure goes back to the model,
 * and the fixed code comes back with its passing test output.
 *
 *   npx tsx examples/skills-code-generation.ts
 *
 * The sandbox is a LocalProcessSandbox: convenient, NOT an isolation
 * boundary. Use BubblewrapSandbox for untrusted code.
 */
import { SkillRegistry } from 'tandem-agents';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { codeGenerationSkill } from 'tandem-agents/skills';
import { ScriptedModel } from 'tandem-agents/testing';

const tests =
  '```python\nfrom solution import slugify\nassert slugify("Hello  World") == "hello-world"\nprint("tests passed")\n```';
const model = new ScriptedModel([
  { text: `\`\`\`python\ndef slugify(text):\n    return text.lower().replace(" ", "-")\n\`\`\`\n${tests}` },
  (request) => {
    const error = /AssertionError[^\n]*/.exec(String(request.messages[0]?.content))?.[0];
    console.log(`[model] saw the failure: ${error}`);
    return {
      text: `\`\`\`python\ndef slugify(text):\n    return "-".join(text.lower().split())\n\`\`\`\n${tests}`,
    };
  },
]);

const sandbox = await LocalProcessSandbox.create();
try {
  const skills = new SkillRegistry({ skills: [codeGenerationSkill], model });
  const out = await skills.invokeDirect<{
    code: string;
    passed: boolean;
    attempts: number;
    testOutput: { stdout: string };
  }>(
    'code_generation',
    { task: 'A slugify(text) function: lower case, words joined by single dashes' },
    { sandbox },
  );
  console.log(`\n${out.code}`);
  console.log(`passed=${out.passed} after ${out.attempts} attempt(s): ${out.testOutput.stdout.trim()}`);
} finally {
  await sandbox.dispose();
}
