import { readdirSync, readFileSync } from 'node:fs';

/** True when `pid` is a live (not zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker) && isAlive(Number(name))) found.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** A `sleep` duration unique to one test, so its processes can be found by command line. */
export function uniqueSleep(): string {
  return `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
