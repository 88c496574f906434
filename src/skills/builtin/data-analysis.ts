/**
 * `data_analysis` (seed 002): a question about a CSV or JSON file in the
 * sandbox, answered by code — inspect → plan → write Python → run → repair
 * (bounded) → summarise with the numbers the code computed. Charts are files
 * (PNG through matplotlib when installed, SVG otherwise) returned as
 * artifacts, and inline as image parts when small. Needs only `python3` and
 * its standard library; uses pandas when present.
 * @module
 */
import { z } from 'zod/v4';
import type { Sandbox } from '../../core/sandbox.js';
import { parseJSONLoose } from '../../model/json.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';
import { CHART_DIR_ENV, DATA_HELPER_PY, RESULT_PREFIX } from './data-helper.js';
import { BuiltinSkillError } from './errors.js';
import { assertRan, failureOf, writeRunRepair } from './repair-loop.js';
import {
  artifactSchema,
  firstCode,
  imagePartSchema,
  inlineImage,
  invocationDir,
  listArtifacts,
  requireSandbox,
  tail,
  workspacePath,
} from './support.js';

const PLANNER =
  'You are a data analyst. Given a question and a preview of a data file, write a short numbered plan (3 to 6 steps): the columns to use, the computations, and one chart when a chart helps. No code.';

const CODER = `You write one self-contained Python 3 script that answers a question about a data file.
Rules:
- Read the file with \`from tandem_data import load\` (\`load(path)\` returns a list of dicts, numeric text already numbers; \`numbers(rows, column)\` gives a column's numbers), or with pandas when it is available.
- Print the intermediate numbers you compute.
- At the end call \`result(name=value, ...)\` from tandem_data once, with the key numbers of the answer (plain numbers, strings, lists, dicts).
- For a chart call \`save_chart(name, labels, values, title, kind="bar" or "line")\` from tandem_data (it picks PNG or SVG), or save matplotlib figures into the directory \`tandem_data.CHART_DIR\`.
- No network, no input(), no files outside the working directory.
Reply with the script in one fenced \`\`\`python block.`;

const SUMMARISER =
  'You summarise a data analysis for the user. Answer the question directly, using only the numbers the script computed, quoted exactly. Mention the charts when there are any. Be brief.';

const DATA_FILE = /\.(csv|tsv|json|jsonl|ndjson)$/i;

/** Output of `data_analysis`. */
export const dataAnalysisOutputSchema = z.object({
  query: z.string(),
  /** The data file, relative to the workspace. */
  file: z.string(),
  plan: z.string(),
  /** The script that ran, and where it was saved. */
  code: z.string(),
  script: z.string(),
  attempts: z.number().int(),
  stdout: z.string(),
  /** What the script reported with `result(...)`; empty when it reported nothing. */
  results: z.record(z.string(), z.unknown()),
  summary: z.string(),
  /** Charts the script wrote. */
  artifacts: z.array(artifactSchema),
  /** The charts small enough to inline. */
  images: z.array(imagePartSchema),
  /** Which optional Python packages the sandbox has. */
  libraries: z.object({ pandas: z.boolean(), matplotlib: z.boolean() }),
});

/** What `data_analysis` returns. */
export type DataAnalysisOutput = z.output<typeof dataAnalysisOutputSchema>;

/** `data_analysis`: answers `query` from a data file with code run in the sandbox. */
export const dataAnalysisSkill = defineSkill({
  id: 'data_analysis',
  name: 'Data analysis',
  description:
    'Answer a question about a CSV or JSON file in the workspace: plan, write Python, run it in the sandbox (repairing errors), summarise the computed numbers; charts come back as files',
  category: 'data',
  tags: ['python', 'csv', 'json', 'charts', 'sandbox'],
  risk: 'risky',
  parameters: z.object({
    query: z.string().trim().min(1).describe('The question to answer from the data'),
    file: z
      .string()
      .optional()
      .describe('CSV or JSON file in the workspace; default: the first data file found there'),
    attempts: z.number().int().min(1).max(5).default(3).describe('Script attempts, repairs included'),
    timeoutMs: z.number().int().positive().default(60_000).describe('Deadline of one script run'),
  }),
  output: dataAnalysisOutputSchema,
  async run({ query, file, attempts, timeoutMs }, ctx) {
    const sandbox = requireSandbox(ctx);
    const dir = invocationDir(ctx, 'analysis');
    const script = `${dir}/analysis.py`;
    const charts = `${dir}/charts`;
    const { data, preview, libraries } = await skillStage(
      ctx,
      { name: 'inspect', detail: file ?? 'the first data file' },
      async () => {
        const data = file === undefined ? await findDataFile(ctx, sandbox) : workspacePath(ctx, file);
        await sandbox.writeFile(`${dir}/tandem_data.py`, DATA_HELPER_PY);
        return { data, ...(await inspect(ctx, dir, data)) };
      },
    );
    const available = Object.entries(libraries)
      .map(([name, present]) => `${name}: ${present ? 'available' : 'not installed'}`)
      .join(', ');
    const context = `Question: ${query}\nData file: ${data}\nPython packages: ${available}\n\nPreview:\n${preview}`;
    const plan = await skillStage(ctx, { name: 'plan' }, () => ctx.generate(context, { system: PLANNER }));
    const ran = await writeRunRepair(ctx, {
      attempts,
      system: CODER,
      prompt: `${context}\n\nPlan:\n${plan}\n\nWrite the script.`,
      parse: firstCode,
      async run(code) {
        await sandbox.writeFile(script, code);
        return sandbox.exec(`python3 ${script}`, {
          env: { [CHART_DIR_ENV]: charts, MPLBACKEND: 'Agg' },
          timeoutMs,
          signal: ctx.signal,
        });
      },
      repairPrompt: (code, result) =>
        `${context}\n\nYour script:\n\`\`\`python\n${code}\n\`\`\`\nfailed:\n${failureOf(result)}\n\nFix it and reply with the whole corrected script.`,
    });
    assertRan(ctx, ran);
    const results = resultsOf(ran.result.stdout);
    const artifacts = await listArtifacts(sandbox, charts, (path) => /\.(png|svg|jpe?g)$/i.test(path));
    const images = [];
    for (const artifact of artifacts) {
      const image = await inlineImage(sandbox, artifact);
      if (image) images.push(image);
    }
    const summary = await skillStage(ctx, { name: 'summarize' }, () =>
      ctx.generate(
        `Question: ${query}\n\nScript output:\n${tail(ran.result.stdout, 4000)}\n\nResults: ${JSON.stringify(results)}\nCharts: ${artifacts.map((a) => a.path).join(', ') || 'none'}`,
        { system: SUMMARISER, stream: true },
      ),
    );
    return {
      query,
      file: data,
      plan,
      code: ran.code,
      script,
      attempts: ran.attempts,
      stdout: ran.result.stdout,
      results,
      summary,
      artifacts,
      images,
      libraries,
    };
  },
});

/** The first data file of the workspace, hidden directories left out. */
async function findDataFile(ctx: SkillContext, sandbox: Sandbox): Promise<string> {
  const entries = await sandbox.listFiles('.', { recursive: true });
  const found = entries.find(
    (e) => e.type === 'file' && DATA_FILE.test(e.path) && !e.path.split('/').some((p) => p.startsWith('.')),
  );
  if (found) return found.path;
  throw new BuiltinSkillError(
    'no_data',
    ctx.skillId,
    `Skill '${ctx.skillId}': no CSV or JSON file in the workspace; write one there or pass "file"`,
  );
}

const inspectScript = (file: string) => `import importlib.util, json
from tandem_data import describe
print(json.dumps({m: importlib.util.find_spec(m) is not None for m in ("pandas", "matplotlib")}))
describe(${JSON.stringify(file)})`;

/** Which packages the sandbox's Python has, and the `describe` preview of the data. */
async function inspect(
  ctx: SkillContext,
  dir: string,
  file: string,
): Promise<{ preview: string; libraries: { pandas: boolean; matplotlib: boolean } }> {
  const sandbox = requireSandbox(ctx);
  await sandbox.writeFile(`${dir}/inspect.py`, inspectScript(file));
  const result = await sandbox.exec(`python3 ${dir}/inspect.py`, { timeoutMs: 30_000, signal: ctx.signal });
  if (result.exitCode === 127) {
    throw new BuiltinSkillError(
      'no_runtime',
      ctx.skillId,
      `Skill '${ctx.skillId}' needs python3 in the sandbox`,
    );
  }
  if (result.exitCode !== 0) {
    throw new BuiltinSkillError('no_data', ctx.skillId, `Cannot read ${file}: ${failureOf(result)}`);
  }
  const [first = '', ...rest] = result.stdout.split('\n');
  const libraries = librariesSchema.parse(parseJSONOrUndefined(first));
  return { preview: tail(rest.join('\n').trim(), 3000), libraries };
}

const librariesSchema = z
  .object({ pandas: z.boolean().catch(false), matplotlib: z.boolean().catch(false) })
  .catch({ pandas: false, matplotlib: false });

function parseJSONOrUndefined(text: string): unknown {
  try {
    return parseJSONLoose(text, { expect: 'object' });
  } catch {
    return undefined;
  }
}

/** What the script reported on its last `RESULT_JSON:` line. */
function resultsOf(stdout: string): Record<string, unknown> {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(RESULT_PREFIX));
  const value = line ? parseJSONOrUndefined(line.slice(RESULT_PREFIX.length)) : undefined;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
