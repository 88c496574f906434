/**
 * A cgroup per sandbox, so its memory and process count are capped for all
 * its processes together, not one process at a time. cgroup v2 is used when
 * a writable directory with the `memory` controller is found (an explicit
 * `parent`, whose controllers are switched on when needed; else this
 * process's own cgroup or its parent, used only where the `memory` controller
 * is already delegated to its children); otherwise the
 * cgroup v1 `memory` and `pids` hierarchies when they are mounted and
 * writable (hybrid hosts). Where neither works, {@link SandboxCgroup.create}
 * says why and the sandbox falls back to per-process rlimits.
 * @module
 */
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock } from '../core/seams.js';
import { hasCode, ioError } from './errors.js';

/** What a sandbox cgroup caps: resident memory (no swap) and tasks (processes and threads). */
export interface CgroupLimits {
  memoryBytes: number;
  maxProcesses: number;
}

/** Attempts to empty and remove a cgroup on release, 20 ms apart: killed processes take a moment to leave. */
const REMOVE_ATTEMPTS = 100;

interface Mount {
  root: string;
  point: string;
  fstype: string;
  superOptions: string[];
}

/** The cgroup of one sandbox: one directory (v2) or one per v1 hierarchy. */
export class SandboxCgroup {
  private constructor(
    /** Directories whose `cgroup.procs` receive each process. */
    private readonly dirs: string[],
    /** Which limits hold. */
    readonly caps: { memory: boolean; pids: boolean },
  ) {}

  /**
   * Creates the cgroup `name` with `limits`.
   * @param parent A writable cgroup v2 directory to create it in (delegated to this user). Default: found automatically.
   * @returns The cgroup, or why none could be made here.
   */
  static async create(
    name: string,
    limits: CgroupLimits,
    parent?: string,
  ): Promise<SandboxCgroup | { unavailable: string }> {
    const [mounts, own] = await Promise.all([readMounts(), readOwnCgroups()]);
    const v2 = mounts.find((m) => m.fstype === 'cgroup2');
    const v2Own = v2 && own.get('') !== undefined ? under(v2, own.get('') as string) : undefined;
    const candidates = parent ? [parent] : v2Own ? [v2Own, dirname(v2Own)] : [];
    for (const candidate of candidates) {
      // Only a parent the user named may have controllers switched on: elsewhere that would change a system setting.
      const dir = await createV2(join(candidate, name), limits, candidate === parent).catch(() => undefined);
      if (dir) return new SandboxCgroup([dir.path], { memory: true, pids: dir.pids });
    }
    if (parent) return { unavailable: `cannot create a cgroup with the memory controller under ${parent}` };
    const v1 = async (controller: string, files: Record<string, number>) => {
      const mount = mounts.find((m) => m.fstype === 'cgroup' && m.superOptions.includes(controller));
      const path = own.get(controller);
      if (!mount || path === undefined) return undefined;
      return createV1(join(under(mount, path), name), files).catch(() => undefined);
    };
    const memory = await v1('memory', {
      'memory.limit_in_bytes': limits.memoryBytes,
      'memory.memsw.limit_in_bytes': limits.memoryBytes,
    });
    const pids = await v1('pids', { 'pids.max': limits.maxProcesses });
    if (memory || pids) {
      return new SandboxCgroup(
        [memory, pids].filter((d): d is string => d !== undefined),
        {
          memory: memory !== undefined,
          pids: pids !== undefined,
        },
      );
    }
    return {
      unavailable:
        'no writable cgroup v2 directory with the memory controller, and no writable cgroup v1 memory or pids hierarchy',
    };
  }

  /**
   * Moves a process (before it starts anything) into the cgroup.
   * @throws SandboxError `io` when the kernel refuses.
   */
  async add(pid: number): Promise<void> {
    for (const dir of this.dirs) {
      await writeFile(join(dir, 'cgroup.procs'), `${pid}\n`).catch((error: unknown) => {
        throw ioError(`Cannot move process ${pid} into ${dir}`, error);
      });
    }
  }

  /**
   * Kills what is left in the cgroup and removes it.
   * @throws SandboxError `io` when it cannot be removed.
   */
  async remove(clock: Clock): Promise<void> {
    for (const dir of this.dirs) {
      for (let attempt = 1; ; attempt++) {
        const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
        for (const pid of procs.split('\n').filter(Boolean)) killQuietly(Number(pid));
        const error = await rmdir(dir).then(
          () => undefined,
          (e: unknown) => (hasCode(e, 'ENOENT') ? undefined : e),
        );
        if (!error) break;
        if (attempt >= REMOVE_ATTEMPTS) throw ioError(`Cannot remove the cgroup ${dir}`, error);
        await new Promise<void>((resolve) => clock.setTimer(20, resolve));
      }
    }
  }
}

async function createV2(
  dir: string,
  limits: CgroupLimits,
  enableControllers: boolean,
): Promise<{ path: string; pids: boolean }> {
  const parent = dirname(dir);
  const available = (await readFile(join(parent, 'cgroup.controllers'), 'utf8')).split(/\s+/);
  if (!available.includes('memory')) throw new Error('no memory controller');
  const enabled = (await readFile(join(parent, 'cgroup.subtree_control'), 'utf8')).split(/\s+/);
  const pids = available.includes('pids') && (enableControllers || enabled.includes('pids'));
  const missing = ['memory', ...(pids ? ['pids'] : [])].filter((c) => !enabled.includes(c));
  if (missing.includes('memory') && !enableControllers) throw new Error('memory controller not delegated');
  if (missing.length > 0 && enableControllers) {
    await writeFile(join(parent, 'cgroup.subtree_control'), missing.map((c) => `+${c}`).join(' '));
  }
  await mkdir(dir);
  try {
    await writeFile(join(dir, 'memory.max'), String(limits.memoryBytes));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(ignoreMissing);
    if (pids) await writeFile(join(dir, 'pids.max'), String(limits.maxProcesses));
  } catch (error) {
    await rmdir(dir).catch(() => {});
    throw error;
  }
  return { path: dir, pids };
}

async function createV1(dir: string, files: Record<string, number>): Promise<string> {
  await mkdir(dir);
  try {
    // memsw (memory plus swap) exists only with swap accounting; it must not be below the memory limit, so it comes second.
    for (const [file, value] of Object.entries(files)) {
      await writeFile(join(dir, file), String(value)).catch(ignoreMissing);
    }
  } catch (error) {
    await rmdir(dir).catch(() => {});
    throw error;
  }
  return dir;
}

function ignoreMissing(error: unknown): void {
  if (!hasCode(error, 'ENOENT')) throw error;
}

/** `/proc/self/cgroup`: controller (`''` for v2) → path. */
async function readOwnCgroups(): Promise<Map<string, string>> {
  const text = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    for (const controller of (match[1] as string).split(',')) own.set(controller, match[2] as string);
  }
  return own;
}

async function readMounts(): Promise<Mount[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const fields = before.split(' ');
    const [fstype, , superOptions] = after.split(' ');
    mounts.push({
      root: unescapeMount(fields[3] ?? ''),
      point: unescapeMount(fields[4] ?? ''),
      fstype: fstype ?? '',
      superOptions: (superOptions ?? '').split(','),
    });
  }
  return mounts;
}

/** The directory of cgroup `path` in `mount` (which may show only a subtree, from its `root`). */
function under(mount: Mount, path: string): string {
  const root = mount.root === '/' ? '' : mount.root;
  const relative = root && path.startsWith(root) ? path.slice(root.length) : path;
  return join(mount.point, relative);
}

function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** A limit a `BubblewrapSandbox` could not enforce for the sandbox as a whole on this host, found at `create()`. */
export interface SandboxWarning {
  /**
   * - `memory_per_process`: no memory cgroup; `memoryBytes` caps each process's
   *   address space, so each exec may use up to `memoryBytes × maxProcesses`;
   * - `processes_uncapped`: no pids cgroup and the sandbox runs as root, which
   *   RLIMIT_NPROC does not bind: the process count, and so the total memory, is unbounded.
   */
  kind: 'memory_per_process' | 'processes_uncapped';
  message: string;
}

/**
 * What `caps` leaves unenforced.
 * @param nprocBinds Whether RLIMIT_NPROC binds the sandbox user (it is not root).
 * @param why Why there is no cgroup, when there is none.
 */
export function limitWarnings(
  caps: SandboxCgroup['caps'] | undefined,
  limits: CgroupLimits,
  nprocBinds: boolean,
  why: string,
): SandboxWarning[] {
  const warnings: SandboxWarning[] = [];
  const processesCapped = caps?.pids || nprocBinds;
  if (!caps?.memory) {
    const total = processesCapped
      ? `up to ${limits.maxProcesses} processes × ${mib(limits.memoryBytes)} = ${mib(limits.memoryBytes * limits.maxProcesses)} per exec`
      : 'with no cap on the number of processes';
    warnings.push({
      kind: 'memory_per_process',
      message: `memoryBytes caps each process, not the sandbox (${why}): ${total}`,
    });
  }
  if (!processesCapped) {
    warnings.push({
      kind: 'processes_uncapped',
      message: `The sandbox runs as root and no pids cgroup is available (${why}): RLIMIT_NPROC does not bind root, so its processes are not capped; pass runAs an unprivileged user`,
    });
  }
  return warnings;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}
