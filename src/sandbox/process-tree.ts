/**
 * Killing everything one exec started. A process group kill misses a child
 * that called `setsid` or `setpgid`, and such a child, holding the exec's
 * stdout, would keep its pipe open for ever. On Linux `/proc` shows what
 * the group kill misses: the session, the descendants (by parent pid, while
 * the parents live), and whoever still holds the output pipes.
 * @module
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

/** Rounds of stop-and-look before the kill; a tree that grows faster than this is still stopped where it got. */
const MAX_ROUNDS = 64;

interface ProcessInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
}

/**
 * SIGKILLs the process group and the session led by `leader`, and every
 * descendant of them. They are stopped first, round after round until no new
 * one appears, so none can fork away or be orphaned (and lose its parent
 * link) between the look and the kill.
 */
export async function killProcessTree(leader: number): Promise<void> {
  signal(-leader, 'SIGSTOP');
  const stopped = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = treeOf(leader, await processes()).filter((pid) => !stopped.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid, 'SIGSTOP');
      stopped.add(pid);
    }
  }
  signal(-leader, 'SIGKILL');
  for (const pid of stopped) signal(pid, 'SIGKILL');
}

/** The `/proc/<pid>/fd/<n>` link targets of `fds` of a live process (`socket:[…]`, `pipe:[…]`); empty without `/proc`. */
export async function fdLinks(pid: number, fds: readonly number[]): Promise<string[]> {
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => undefined)));
  return links.filter(
    (link): link is string => link?.startsWith('socket:[') || link?.startsWith('pipe:[') || false,
  );
}

/** SIGKILLs every process (but this one) holding one of `links` open: the output pipes of an exec whose tree is gone. */
export async function killHolders(links: readonly string[]): Promise<void> {
  if (links.length === 0) return;
  const wanted = new Set(links);
  await Promise.all(
    (await pids()).map(async (pid) => {
      if (pid === process.pid) return;
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
      for (const fd of fds) {
        const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => undefined);
        if (link && wanted.has(link)) return signal(pid, 'SIGKILL');
      }
    }),
  );
}

function treeOf(leader: number, all: ProcessInfo[]): number[] {
  const members = new Set<number>();
  for (const p of all) if (p.pgrp === leader || p.session === leader || p.pid === leader) members.add(p.pid);
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const queue = [...members];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (!members.has(child)) {
        members.add(child);
        queue.push(child);
      }
    }
  }
  members.delete(process.pid);
  return [...members];
}

async function pids(): Promise<number[]> {
  const names = await readdir('/proc').catch(() => []);
  return names.filter((name) => /^\d+$/.test(name)).map(Number);
}

async function processes(): Promise<ProcessInfo[]> {
  const stats = await Promise.all(
    (await pids()).map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)),
  );
  const found: ProcessInfo[] = [];
  for (const stat of stats) {
    // The command name may hold spaces and parentheses: the fields that matter follow its last `)`.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (!stat || !fields) continue;
    found.push({
      pid: Number.parseInt(stat, 10),
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      session: Number(fields[3]),
    });
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already, or not ours to signal.
  }
}
