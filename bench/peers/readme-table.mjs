// Writes the peer benchmark's results (results.json of bench/peers/run.mjs)
// into README.md's speed table, between the `speed-table` markers, with the
// date, Node version and machine. Each figure is the median µs per turn of
// every timed run of every round, pooled (2 rounds × 300 runs by default):
// one statistic over all the samples, not a pick among the rounds' medians.
//   node bench/peers/readme-table.mjs <results.json> [README.md]
import fs from 'node:fs';

const [resultsFile, readme = new URL('../../README.md', import.meta.url).pathname] = process.argv.slice(2);
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
const ROWS = [
  ['baseline', 'hand-written loop (the floor)'],
  ['tandem', '**tandem**'],
  ['ai-sdk', 'Vercel AI SDK'],
  ['openai-agents', 'OpenAI Agents JS'],
  ['langgraph', 'LangGraph'],
];

/** The median of `xs`: the middle value, or the mean of the two middle values of an even count. */
function median(xs) {
  const sorted = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return undefined;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
const fmt = (v) => (v === undefined ? '—' : v < 20 ? v.toFixed(1) : String(Math.round(v)));

const lines = [];
for (const [id, label] of ROWS) {
  const runs = results.rounds.map((round) => round.results[id]).filter((r) => r && !r.error);
  if (runs.length === 0) continue;
  const cells = ['seq', 'parallel', 'stream'].map((path) =>
    fmt(median(runs.flatMap((r) => r[path]?.samples ?? []))),
  );
  const bold = id === 'tandem' ? cells.map((c) => `**${c}**`) : cells;
  lines.push(`| ${label} | ${bold.join(' | ')} |`);
}
const { meta } = results;
const rounds = results.rounds.length;
const runs = meta.config.runs;
const machine = `${meta.cpus}-core ${(meta.cpuModel ?? 'cpu').replace(/\s+/g, ' ').trim()}, ${meta.platform}`;
const table = [
  `Median of all ${rounds * runs} timed runs per cell (${rounds} round${rounds === 1 ? '' : 's'} × ${runs}, pooled), ${meta.date.slice(0, 10)}, node ${meta.node}, ${machine}:`,
  '',
  `| | sequential | ${meta.config.P} parallel calls | streaming |`,
  '| --- | --: | --: | --: |',
  ...lines,
].join('\n');

const text = fs.readFileSync(readme, 'utf8');
const start = '<!-- speed-table -->';
const end = '<!-- /speed-table -->';
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`${readme}: no ${start} … ${end} markers`);
fs.writeFileSync(readme, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
console.log(`README speed table updated from ${resultsFile}`);
