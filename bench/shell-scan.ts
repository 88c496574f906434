/**
 * Shell-scanner bench: the time `checkShell` takes on 1 MB commands, one
 * realistic (a long script) and the rest shaped to defeat backtracking
 * regexes (the old scanner took 71 s on 250 kB of `curl `). Each is scanned
 * several times and the median wall and CPU times are reported; the run
 * fails when a median wall time is over the 50 ms budget. CPU time is shown
 * because on a loaded machine the wall time mostly measures the other
 * processes. Run: `npx tsx bench/shell-scan.ts`.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { checkShell } from '../src/safety/guardrails/shell-check.js';

const SIZE = 1_000_000;
const BUDGET_MS = 50;
const RUNS = 9;

const SCRIPT = `#!/usr/bin/env bash
set -euo pipefail
for f in "$@"; do
  if [ -f "$f" ]; then gzip -9 < "$f" > "/tmp/out/$(basename "$f").gz" && echo "packed $f"; fi
done
curl -fsSL https://example.com/data.json | jq '.items[] | {id, name}' > items.json
rm -rf ./build/cache/* && mkdir -p ./build/cache
`;

const shapes: Record<string, string> = {
  'bash script': SCRIPT,
  'curl words': 'curl ',
  'one long word': 'a',
  'rm options': 'rm -r ',
  'sudo pipes': 'curl x | sudo -E ',
  'fork-bomb prefixes': ':(){ :|',
  'tee options': 'tee -a ',
  substitutions: 'eval $(',
  'code with quotes': 'os.system("ls -la /tmp"); ',
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

console.log(`load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs; budget ${BUDGET_MS} ms`);
let failed = false;
for (const [name, unit] of Object.entries(shapes)) {
  // Through JSON, as tool arguments arrive: a flat string, not the rope `repeat` builds.
  const command: string = JSON.parse(
    JSON.stringify(unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE)),
  );
  const wall: number[] = [];
  const cpu: number[] = [];
  let verdict = checkShell(command);
  for (let run = 0; run < RUNS; run++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    verdict = checkShell(command);
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  failed ||= median(wall) > BUDGET_MS;
  const outcome = verdict.ok ? 'ok' : verdict.rule;
  console.log(
    `${name.padEnd(20)} ${(command.length / 1e6).toFixed(1)} MB  wall ${median(wall).toFixed(1).padStart(6)} ms  cpu ${median(cpu).toFixed(1).padStart(6)} ms  ${outcome}`,
  );
}
console.log(failed ? `FAIL: a median scan took over ${BUDGET_MS} ms` : `all scans under ${BUDGET_MS} ms`);
if (failed) process.exitCode = 1;
