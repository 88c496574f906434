/**
 * `node tsc.mjs <tsc binary> <tsconfig>`: type-checks with `skipLibCheck`
 * off and fails on any error in this project's files or in tandem-agents'
 * declarations. Errors inside other packages' declarations (e.g. `ai` naming
 * DOM types in a Node-only project) are theirs: listed, not failed on.
 */
import { spawnSync } from 'node:child_process';

const [tsc, config] = process.argv.slice(2);
const version = spawnSync(tsc, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? `${tsc} does not run`;
const run = spawnSync(tsc, ['-p', config, '--pretty', 'false'], { encoding: 'utf8' });
const output = `${run.stdout ?? ''}${run.stderr ?? run.error ?? ''}`;
const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
const ours = errors.filter(
  (line) => !line.startsWith('node_modules/') || line.startsWith('node_modules/tandem-agents/'),
);
const theirs = errors.length - ours.length;

if (ours.length > 0 || (run.status !== 0 && errors.length === 0)) {
  console.error(`${version}, ${config}: FAILED (exit ${run.status})\n${output}`);
  process.exit(1);
}
console.log(
  `${version}, ${config}: clean (${theirs} error(s) inside other packages' declarations not counted)`,
);
