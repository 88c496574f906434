/**
 * The `bwrap` command line of a {@link BubblewrapSandbox}: every namespace
 * unshared (no network), the host's system directories read-only, a private
 * `/tmp`, the workspace the only writable host directory (at `/workspace`),
 * all capabilities dropped, and resource limits set by `prlimit` inside.
 * @module
 */
import { lstat, readlink } from 'node:fs/promises';
import { hasCode } from './errors.js';

/** Where the workspace appears inside the sandbox. */
export const BWRAP_WORKSPACE = '/workspace';

/** Resource limits of every process in a {@link BubblewrapSandbox}. */
export interface SandboxLimits {
  /** RLIMIT_CPU: CPU seconds per process. Default 60. */
  cpuSeconds?: number;
  /** RLIMIT_AS: virtual memory per process, in bytes; with a cgroup, also the resident memory of the whole sandbox. Default 2 GiB (JIT runtimes reserve far more than they touch). */
  memoryBytes?: number;
  /** RLIMIT_NPROC: processes of the sandbox user in one exec, not enforced for root (see `runAs`); with a cgroup, the tasks of the whole sandbox, root included. Default 256. */
  maxProcesses?: number;
  /** RLIMIT_FSIZE: largest file a process may write, in bytes. Default 1 GiB. */
  maxFileBytes?: number;
}

/** Default {@link SandboxLimits}. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<Required<SandboxLimits>> = {
  cpuSeconds: 60,
  memoryBytes: 2 * 1024 ** 3,
  maxProcesses: 256,
  maxFileBytes: 1024 ** 3,
};

const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

// What interpreters need from /etc: the loader cache, users, alternatives, certificates, time zone. Not the rest (no /etc/shadow).
const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/mime.types',
];

/**
 * Mount arguments for the host's system directories: `/usr` and the listed
 * `/etc` entries read-only, `/bin`, `/lib*` as the host has them (symlinks
 * into `/usr` on merged-usr systems, directories elsewhere).
 */
export async function systemMounts(extraReadOnly: readonly string[] = []): Promise<string[]> {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of SYSTEM_DIRS) {
    const stats = await lstat(dir).catch((error: unknown) => {
      if (hasCode(error, 'ENOENT')) return undefined;
      throw error;
    });
    if (stats?.isSymbolicLink()) args.push('--symlink', await readlink(dir), dir);
    else if (stats?.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const entry of ETC_ENTRIES) args.push('--ro-bind-try', entry, entry);
  for (const path of extraReadOnly) args.push('--ro-bind', path, path);
  return args;
}

/** The full `bwrap` arguments up to and including `--`, for a command run in `visibleCwd`. */
export function bwrapArgs(mounts: readonly string[], workspace: string, visibleCwd: string): string[] {
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    ...mounts,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    workspace,
    BWRAP_WORKSPACE,
    '--remount-ro',
    '/',
    '--chdir',
    visibleCwd,
    '--',
  ];
}

/** `prlimit` in front of `argv`, applying `limits` to the command and everything it starts. */
export function prlimitArgv(limits: SandboxLimits, argv: readonly string[]): string[] {
  const l = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  return [
    'prlimit',
    `--cpu=${l.cpuSeconds}`,
    `--as=${l.memoryBytes}`,
    `--nproc=${l.maxProcesses}`,
    `--fsize=${l.maxFileBytes}`,
    '--',
    ...argv,
  ];
}
