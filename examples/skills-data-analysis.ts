/**
 * The `data_analysis` built-in skill, offline: a CSV in the sandbox, a
 * question, and a scripted model whose first script has a bug on purpose —
 * the skill runs it, sends the traceback back, runs the fix, and summarises
 * the numbers the script computed. The chart is an SVG written by the Python
 * standard library (a PNG when matplotlib is installed).
 *
 *   npx tsx examples/skills-data-analysis.ts
 *
 * The sandbox is a LocalProcessSandbox: convenient, NOT an isolation
 * boundary. Use BubblewrapSandbox for untrusted code.
 */
import { EventBus, SkillRegistry } from 'tandem-agents';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { type DataAnalysisOutput, dataAnalysisSkill } from 'tandem-agents/skills';
import { ScriptedModel, testRuntime } from 'tandem-agents/testing';

const csv = `region,units,price
north,12,9.50
south,7,12.00
north,3,10.25
east,9,8.75
south,5,11.50
`;

const model = new ScriptedModel([
  { text: '1. Mean of price.\n2. Total units per region.\n3. Bar chart of units per region.' },
  // A wrong column name: the script raises KeyError, and the skill asks for a fix.
  {
    text: '```python\nfrom tandem_data import load\nrows = load("sales.csv")\nprint(rows[0]["quantity"])\n```',
  },
  {
    text: `\`\`\`python
from tandem_data import load, numbers, result, save_chart
rows = load("sales.csv")
prices = numbers(rows, "price")
units = {}
for row in rows:
    units[row["region"]] = units.get(row["region"], 0) + row["units"]
save_chart("units", list(units), list(units.values()), "Units per region")
result(mean_price=round(sum(prices) / len(prices), 2), units_per_region=units)
\`\`\``,
  },
  (request) => {
    const results = /Results: (.*)/.exec(String(request.messages[0]?.content))?.[1] ?? '{}';
    const { mean_price, units_per_region } = JSON.parse(results);
    return {
      text: `The mean price is ${mean_price}; units per region: ${JSON.stringify(units_per_region)}.`,
    };
  },
]);

const runtime = testRuntime();
const bus = new EventBus({ runId: 'run_data', clock: runtime.clock });
bus.on('stage', (e) => {
  if (e.status !== 'running') console.log(`[stage] ${e.name} ${e.status}`);
});

const sandbox = await LocalProcessSandbox.create();
try {
  await sandbox.writeFile('sales.csv', csv);
  const skills = new SkillRegistry({ skills: [dataAnalysisSkill], model, runtime });
  const out = await skills.invokeDirect<DataAnalysisOutput>(
    'data_analysis',
    { query: 'What is the mean price, and how many units did each region sell?' },
    { emit: bus, sandbox },
  );
  console.log(`\nattempts: ${out.attempts}`);
  console.log(`results: ${JSON.stringify(out.results)}`);
  console.log(`charts: ${out.artifacts.map((a) => `${a.path} (${a.mediaType})`).join(', ')}`);
  console.log(`summary: ${out.summary}`);
} finally {
  await sandbox.dispose();
}
