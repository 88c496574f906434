import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/core/sandbox.js';
import type { ModelRequest } from '../../../src/model/types.js';
import { LocalProcessSandbox } from '../../../src/sandbox/local.js';
import {
  BuiltinSkillError,
  type DataAnalysisOutput,
  dataAnalysisSkill,
} from '../../../src/skills/builtin/index.js';
import { SkillError, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedModel, seededRandom } from '../../../src/testing/index.js';
import { recorder } from '../helpers.js';
import { SANDBOXES, stages, withSandbox } from './helpers.js';

const promptOf = (request: ModelRequest) => String(request.messages[0]?.content);

/** A sales table the model has never seen: seeded, so the test knows the answers. */
function salesCsv(seed: number): { csv: string; meanPrice: number; unitsByRegion: Record<string, number> } {
  const random = seededRandom(seed);
  const regions = ['north', 'south', 'east'];
  const rows: { region: string; units: number; price: number }[] = [];
  for (let i = 0; i < 24; i++) {
    const region = regions[Math.floor(random.next() * regions.length)]!;
    rows.push({
      region,
      units: 1 + Math.floor(random.next() * 20),
      price: Math.round(random.next() * 10_000) / 100,
    });
  }
  const unitsByRegion: Record<string, number> = {};
  for (const row of rows) unitsByRegion[row.region] = (unitsByRegion[row.region] ?? 0) + row.units;
  const meanPrice = rows.reduce((sum, row) => sum + row.price, 0) / rows.length;
  const csv = ['region,units,price', ...rows.map((r) => `${r.region},${r.units},${r.price}`)].join('\n');
  return { csv, meanPrice, unitsByRegion };
}

const RAISES =
  '```python\nfrom tandem_data import load\nrows = load("data/sales.csv")\nprint(rows[0]["revenue"])\n```';

const WORKS = `\`\`\`python
from tandem_data import load, numbers, result, save_chart
rows = load("data/sales.csv")
prices = numbers(rows, "price")
mean_price = sum(prices) / len(prices)
units = {}
for row in rows:
    units[row["region"]] = units.get(row["region"], 0) + row["units"]
print("mean price", round(mean_price, 4))
save_chart("units_by_region", list(units), list(units.values()), "Units by region")
result(mean_price=round(mean_price, 4), units_by_region=units, rows=len(rows))
\`\`\``;

/** Plan, a script that raises, the repaired script, then a summary quoting the results it was given. */
function analyst() {
  return new ScriptedModel([
    (request) => {
      expect(promptOf(request)).toContain("column 'region': text");
      return { text: '1. Mean of price. 2. Sum units per region. 3. Bar chart of units.' };
    },
    { text: RAISES },
    (request) => {
      expect(promptOf(request)).toContain("KeyError: 'revenue'");
      return { text: WORKS };
    },
    (request) => ({ text: `Answer from ${/Results: (.*)/.exec(promptOf(request))?.[1]}` }),
  ]);
}

describe.each(SANDBOXES)('data_analysis on a %s sandbox', (kind) => {
  it('computes a mean and a group-by from a CSV it did not see, after repairing a script that raised', async () => {
    const { csv, meanPrice, unitsByRegion } = salesCsv(kind === 'local' ? 7 : 11);
    const model = analyst();
    const { runtime, bus, events } = recorder();
    const skills = new SkillRegistry({ skills: [dataAnalysisSkill], model, runtime });
    const out = await withSandbox(kind, async (sandbox) => {
      await sandbox.writeFile('data/sales.csv', csv);
      return skills.invokeDirect<DataAnalysisOutput>(
        'data_analysis',
        { query: 'What is the mean price, and how many units did each region sell?' },
        { emit: bus, sandbox },
      );
    });
    expect(out.file).toBe('data/sales.csv');
    expect(out.attempts).toBe(2);
    expect(out.results.mean_price).toBeCloseTo(meanPrice, 4);
    expect(out.results.units_by_region).toEqual(unitsByRegion);
    expect(out.summary).toContain(JSON.stringify(out.results));
    const chart = out.artifacts[0]!;
    expect(chart.path).toMatch(
      out.libraries.matplotlib ? /charts\/units_by_region\.png$/ : /charts\/units_by_region\.svg$/,
    );
    expect(out.images).toHaveLength(1);
    expect(out.images[0]).toMatchObject({
      type: 'image',
      mediaType: chart.mediaType,
      filename: chart.path.split('/').pop(),
    });
    if (!out.libraries.matplotlib) expect(atob(out.images[0]!.data)).toContain('Units by region');
    expect(stages(events)).toEqual([
      'inspect:running',
      'inspect:completed',
      'plan:running',
      'plan:completed',
      'write:running',
      'write:completed',
      'execute:running',
      'execute:completed',
      'repair:running',
      'repair:completed',
      'execute:running',
      'execute:completed',
      'summarize:running',
      'summarize:completed',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'skill_output', skillId: 'data_analysis', depth: 0 });
    model.assertConsumed();
  });
});

describe('data_analysis failures', () => {
  const run = (
    params: Record<string, unknown>,
    setup: (s: Sandbox) => Promise<void>,
    model = new ScriptedModel([]),
  ) =>
    withSandbox('local', async (sandbox) => {
      await setup(sandbox);
      const skills = new SkillRegistry({ skills: [dataAnalysisSkill], model });
      return skills.invokeDirect('data_analysis', params, { sandbox }).catch((error: unknown) => error);
    });

  it('reads a JSON file named by "file"', async () => {
    const model = new ScriptedModel([
      { text: 'Count the rows.' },
      {
        text: '```python\nfrom tandem_data import load, result\nresult(count=len(load("in/items.json")))\n```',
      },
      { text: 'There are 3 items.' },
    ]);
    const out = (await run(
      { query: 'How many items?', file: 'in/items.json' },
      (s) => s.writeFile('in/items.json', JSON.stringify({ items: [{ a: 1 }, { a: 2 }, { a: 3 }] })),
      model,
    )) as DataAnalysisOutput;
    expect(out.results).toEqual({ count: 3 });
    expect(out.artifacts).toEqual([]);
  });

  it('fails with execution_failed naming the error when the last attempt still raises', async () => {
    const model = new ScriptedModel([{ text: 'plan' }, { text: RAISES }]);
    const error = await run(
      { query: 'q', attempts: 1 },
      (s) => s.writeFile('data/sales.csv', salesCsv(1).csv),
      model,
    );
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).cause).toBeInstanceOf(BuiltinSkillError);
    expect((error as SkillError).cause).toMatchObject({ kind: 'execution_failed' });
    expect((error as Error).message).toContain("KeyError: 'revenue'");
  });

  it('fails with no_data when the workspace has no CSV or JSON file', async () => {
    const error = await run({ query: 'q' }, (s) => s.writeFile('notes.txt', 'hello'));
    expect((error as SkillError).cause).toMatchObject({ kind: 'no_data' });
  });

  it('refuses a file outside the workspace with invalid_path', async () => {
    const error = await run({ query: 'q', file: '../etc/passwd.csv' }, async () => {});
    expect((error as SkillError).cause).toMatchObject({ kind: 'invalid_path' });
  });

  it('fails with no_runtime when the sandbox has no python3', async () => {
    const sandbox = await LocalProcessSandbox.create({ path: '/nonexistent' });
    try {
      await sandbox.writeFile('data.csv', 'a\n1\n');
      const skills = new SkillRegistry({ skills: [dataAnalysisSkill], model: new ScriptedModel([]) });
      const error = await skills
        .invokeDirect('data_analysis', { query: 'q' }, { sandbox })
        .catch((e: unknown) => e);
      expect((error as SkillError).cause).toMatchObject({ kind: 'no_runtime' });
    } finally {
      await sandbox.dispose();
    }
  });

  it('fails with no_sandbox when invoked without a sandbox', async () => {
    const skills = new SkillRegistry({ skills: [dataAnalysisSkill], model: new ScriptedModel([]) });
    const error = await skills.invokeDirect('data_analysis', { query: 'q' }).catch((e: unknown) => e);
    expect((error as SkillError).cause).toMatchObject({ kind: 'no_sandbox' });
    expect((error as Error).message).toMatch(/needs a sandbox/);
  });
});
