/**
 * `code_generation` (seed 002): code for a described task, with tests. When
 * the sandbox has the language's runtime the tests run there, and failures go
 * back to the model (bounded); the code comes back with its test output.
 * Without a sandbox or a runtime the code is returned unchecked, and says so.
 * @module
 */
import { z } from 'zod/v4';
import type { ExecResult, Sandbox } from '../../core/sandbox.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';
import { failureOf, writeRunRepair } from './repair-loop.js';
import { codeBlocks, invocationDir } from './support.js';

/** A language `code_generation` writes, and how its files run. */
interface LanguageSetup {
  runtime: string;
  fence: string;
  solution: string;
  tests: string;
  hint: string;
}

const LANGUAGES: Readonly<Record<'python' | 'javascript', LanguageSetup>> = {
  python: {
    runtime: 'python3',
    fence: 'python',
    solution: 'solution.py',
    tests: 'test_solution.py',
    hint: 'The tests import from `solution` and use plain `assert` statements (no pytest).',
  },
  javascript: {
    runtime: 'node',
    fence: 'javascript',
    solution: 'solution.cjs',
    tests: 'solution.test.cjs',
    hint: "The solution is CommonJS (`module.exports`); the tests `require('./solution.cjs')` and use `node:assert`.",
  },
};

const WRITER = (setup: LanguageSetup) =>
  `You write small, correct ${setup.fence} code. Reply with two fenced \`\`\`${setup.fence} blocks: first the solution (${setup.solution}), then a test script (${setup.tests}) that exits non-zero when a test fails. ${setup.hint} Standard library only.`;

/** A reply split into solution and tests. */
interface Written {
  code: string;
  tests: string;
}

const execOutputSchema = z.object({
  exitCode: z.number().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
});

/** Output of `code_generation`. */
export const codeGenerationOutputSchema = z.object({
  task: z.string(),
  language: z.enum(['python', 'javascript']),
  code: z.string(),
  /** The test script; empty when the model wrote none (the solution itself was run). */
  tests: z.string(),
  /** Where the files were written (empty without a sandbox). */
  files: z.array(z.string()),
  /** Whether the code ran in the sandbox. */
  executed: z.boolean(),
  /** Whether the tests passed (false when not executed). */
  passed: z.boolean(),
  attempts: z.number().int(),
  /** The last test run's output; null when not executed. */
  testOutput: execOutputSchema.nullable(),
  /** Why the code was not executed, when it was not. */
  note: z.string().optional(),
});

/** `code_generation`: writes code and tests for `task`, runs them in the sandbox when it can. */
export const codeGenerationSkill = defineSkill({
  id: 'code_generation',
  name: 'Code generation',
  description:
    'Write code for a task together with tests; runs the tests in the sandbox when the runtime is there, fixing failures, and returns the code with its test output',
  category: 'code',
  tags: ['python', 'javascript', 'tests', 'sandbox'],
  risk: 'risky',
  parameters: z.object({
    task: z.string().trim().min(1).describe('What the code must do'),
    language: z.enum(['python', 'javascript']).default('python').describe('python or javascript (Node)'),
    attempts: z.number().int().min(1).max(5).default(3).describe('Write attempts, repairs included'),
    timeoutMs: z.number().int().positive().default(30_000).describe('Deadline of one test run'),
  }),
  output: codeGenerationOutputSchema,
  async run({ task, language, attempts, timeoutMs }, ctx) {
    const setup = LANGUAGES[language];
    const prompt = `Task: ${task}`;
    const parse = (reply: string): Written => {
      const blocks = codeBlocks(reply);
      return { code: blocks[0]?.code ?? reply.trim(), tests: blocks[1]?.code ?? '' };
    };
    const sandbox = ctx.sandbox;
    const missing = sandbox ? await missingRuntime(ctx, sandbox, setup.runtime) : 'no sandbox was given';
    if (!sandbox || missing) {
      const written = await skillStage(
        ctx,
        { name: 'write', detail: `${language}, not executed` },
        async () => parse(await ctx.generate(prompt, { system: WRITER(setup) })),
      );
      const base = { task, language, ...written, files: [], executed: false, passed: false };
      return { ...base, attempts: 1, testOutput: null, note: `Not executed: ${missing}` };
    }
    const dir = invocationDir(ctx, 'code');
    const files = [`${dir}/${setup.solution}`, `${dir}/${setup.tests}`];
    const bench: TestBench = { sandbox, dir, setup, timeoutMs };
    const outcome = await writeRunRepair(ctx, {
      attempts,
      system: WRITER(setup),
      prompt,
      parse,
      run: (written) => runTests(ctx, bench, written),
      repairPrompt: (written, result) =>
        `${prompt}\n\nYour solution:\n\`\`\`${setup.fence}\n${written.code}\n\`\`\`\nYour tests:\n\`\`\`${setup.fence}\n${written.tests}\n\`\`\`\nfailed:\n${failureOf(result)}\n\nFix them and reply with both blocks again.`,
    });
    const { exitCode, stdout, stderr, timedOut } = outcome.result;
    return {
      task,
      language,
      ...outcome.code,
      files: outcome.code.tests ? files : files.slice(0, 1),
      executed: true,
      passed: outcome.ok,
      attempts: outcome.attempts,
      testOutput: { exitCode, stdout, stderr, timedOut },
    };
  },
});

/** Why `runtime` cannot run in the sandbox, or undefined when it can. */
async function missingRuntime(
  ctx: SkillContext,
  sandbox: Sandbox,
  runtime: string,
): Promise<string | undefined> {
  const probe = await sandbox.exec(`command -v ${runtime}`, { timeoutMs: 10_000, signal: ctx.signal });
  return probe.exitCode === 0 ? undefined : `${runtime} is not available in the sandbox`;
}

/** Where and how one invocation's tests run; the same for every repair attempt. */
interface TestBench {
  sandbox: Sandbox;
  /** The invocation's directory in the workspace, where the files are written and run. */
  dir: string;
  setup: LanguageSetup;
  /** Deadline of one test run. */
  timeoutMs: number;
}

/** Writes one attempt's files and runs its tests (or the solution, when it has none). */
async function runTests(ctx: SkillContext, bench: TestBench, written: Written): Promise<ExecResult> {
  const { sandbox, dir, setup, timeoutMs } = bench;
  await sandbox.writeFile(`${dir}/${setup.solution}`, written.code);
  if (written.tests) await sandbox.writeFile(`${dir}/${setup.tests}`, written.tests);
  const entry = written.tests ? setup.tests : setup.solution;
  // No bytecode cache: a repaired file of the same size written within the same second would import stale code.
  const env = { PYTHONDONTWRITEBYTECODE: '1' };
  return sandbox.exec(`${setup.runtime} ${entry}`, { cwd: dir, env, timeoutMs, signal: ctx.signal });
}
