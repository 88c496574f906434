// Writes the peer benchmark's results (results.json of ../shared/bench-peers'
// run.mjs) into README.md's speed table, between the `speed-table` markers:
// medians over the rounds, with the date, Node version and machine.
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

const median = (xs) => {
  const sorted = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return sorted.length ? sorted[(sorted.length - 1) >> 1] : undefined;
};
const fmt = (v) => (v === undefined ? '—' : v < 20 ? v.toFixed(1) : String(Math.round(v)));

const lines = [];
for (const [id, label] of ROWS) {
  const runs = results.rounds.map((round) => round.results[id]).filter((r) => r && !r.error);
  if (runs.length === 0) continue;
  const cells = ['seq', 'parallel', 'stream'].map((path) => fmt(median(runs.map((r) => r[path]?.median))));
  const bold = id === 'tandem' ? cells.map((c) => `**${c}**`) : cells;
  lines.push(`| ${label} | ${bold.join(' | ')} |`);
}
const { meta } = results;
const machine = `${meta.cpus}-core ${(meta.cpuModel ?? 'cpu').replace(/\s+/g, ' ').trim()}, ${meta.platform}`;
const table = [
  `Medians of ${results.rounds.length} round${results.rounds.length === 1 ? '' : 's'}, ${meta.date.slice(0, 10)}, node ${meta.node}, ${machine}:`,
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
