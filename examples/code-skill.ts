/**
 * A code skill over the sandbox seam: `code.solve` asks the model for a
 * program, runs it through `code.run` in the sandbox, and feeds errors back
 * until it works (at most 3 attempts, as the seed's code agent). Offline: the
 * model is scripted — its first program has a bug on purpose.
 *
 *   npx tsx examples/code-skill.ts
 *
 * The sandbox is a LocalProcessSandbox: convenient, NOT an isolation
 * boundary. Use BubblewrapSandbox for untrusted code.
 */

import { defineSkill, EventBus, SkillRegistry } from 'tandem-agents';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { ScriptedModel, testRuntime } from 'tandem-agents/testing';
import { z } from 'zod';

const runCode = defineSkill({
  id: 'code.run',
  description: 'Run a Python program in the sandbox and return its exit code and output',
  category: 'code',
  risk: 'risky',
  parameters: z.object({ code: z.string().min(1), timeoutMs: z.number().int().positive().default(10_000) }),
  output: z.object({
    exitCode: z.number().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    timedOut: z.boolean(),
  }),
  async run({ code, timeoutMs }, ctx) {
    if (!ctx.sandbox) throw new Error('code.run needs a sandbox: pass one to invokeDirect or the agent');
    const { exitCode, stdout, stderr, timedOut } = await ctx.sandbox.exec('', {
      language: 'python',
      code,
      timeoutMs,
      signal: ctx.signal,
    });
    return { exitCode, stdout, stderr, timedOut };
  },
});

const FENCE = /```(?:python|py)?\n([\s\S]*?)```/;

const solve = defineSkill({
  id: 'code.solve',
  description: 'Write a Python program for a task, run it, fix it until it works',
  category: 'code',
  risk: 'risky',
  parameters: z.object({ task: z.string().min(1), attempts: z.number().int().min(1).max(5).default(3) }),
  output: z.object({ code: z.string(), stdout: z.string(), attempts: z.number() }),
  async run({ task, attempts }, ctx) {
    let feedback = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const reply = await ctx.generate(
        `Task: ${task}${feedback}\n\nReply with one Python program in a fenced block.`,
        {
          system: 'You write small, correct Python programs.',
        },
      );
      const code = FENCE.exec(reply)?.[1] ?? reply;
      const run = await ctx.invokeSkill<{ exitCode: number | null; stdout: string; stderr: string }>(
        'code.run',
        {
          code,
        },
      );
      if (run.exitCode === 0) return { code, stdout: run.stdout, attempts: attempt };
      feedback = `\n\nYour previous program failed (exit ${run.exitCode}):\n${run.stderr.slice(-1500)}\nFix it.`;
    }
    throw new Error(`no working program after ${attempts} attempt(s)`);
  },
});

const model = new ScriptedModel([
  { text: '```python\nnumbers = [3, 1, 4, 1, 5, 9, 2, 6]\nprint(sum(numbrs) / len(numbers))\n```' },
  (request) => {
    const prompt = String(request.messages[0]!.content);
    console.log(`[model] saw the error: ${/NameError[^\n]*/.exec(prompt)?.[0] ?? '(none)'}`);
    return { text: '```python\nnumbers = [3, 1, 4, 1, 5, 9, 2, 6]\nprint(sum(numbers) / len(numbers))\n```' };
  },
]);

const runtime = testRuntime();
const bus = new EventBus({ runId: 'run_code', clock: runtime.clock });
bus.on('skill_output', (e) =>
  console.log(`[skill_output] ${e.skillId} (depth ${e.depth}) ${JSON.stringify(e.output).slice(0, 90)}`),
);

const sandbox = await LocalProcessSandbox.create();
try {
  const skills = new SkillRegistry({ skills: [runCode, solve], model, runtime });
  const result = await skills.invokeDirect<{ stdout: string; attempts: number }>(
    'code.solve',
    { task: 'Print the mean of 3, 1, 4, 1, 5, 9, 2, 6' },
    { emit: bus, sandbox },
  );
  console.log(`\nmean = ${result.stdout.trim()} (after ${result.attempts} attempt(s))`);
} finally {
  await sandbox.dispose();
}
