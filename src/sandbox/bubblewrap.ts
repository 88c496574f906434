/**
 * `BubblewrapSandbox`: each exec runs under `bwrap` — no network, read-only
 * system, private `/tmp` and pid namespace, no capabilities, resource
 * limits — with only the workspace writable. This is the boundary for
 * untrusted code (docs/sandboxes.md has the threat model).
 * @module
 */
import { chown, rm } from 'node:fs/promises';
import { resolveRuntime } from '../core/seams.js';
import { type PreparedWorkspace, prepareWorkspace, type SandboxOptions, WorkspaceSandbox } from './base.js';
import {
  BWRAP_WORKSPACE,
  bwrapArgs,
  DEFAULT_SANDBOX_LIMITS,
  prlimitArgv,
  type SandboxLimits,
  systemMounts,
} from './bwrap-args.js';
import { limitWarnings, SandboxCgroup, type SandboxWarning } from './cgroup.js';
import { SandboxError } from './errors.js';
import type { SpawnSpec } from './process.js';
import { Workspace } from './workspace.js';

/** Options of a {@link BubblewrapSandbox}. */
export interface BubblewrapOptions extends SandboxOptions {
  /** The `bwrap` executable. Default `bwrap` on the host PATH. */
  bwrapPath?: string;
  /** CPU, memory, process and file-size limits. */
  limits?: SandboxLimits;
  /** Extra host paths bound read-only at the same place (e.g. a runtime installed under `/opt`). */
  readOnlyPaths?: string[];
  /**
   * Run the sandbox as this host user (the workspace is given to it). Only
   * meaningful when this process runs as root: the process limit does not
   * apply to root, and an unprivileged user is a second line of defence.
   */
  runAs?: { uid: number; gid: number };
  /**
   * The cgroup that caps memory and processes for the whole sandbox.
   * Default: made automatically where the host allows it (see
   * docs/sandboxes.md); `{ parent }`: under this writable cgroup v2 directory
   * (one delegated to this user); `false`: none, limits are per process.
   * Read {@link BubblewrapSandbox.warnings} for what could not be enforced.
   */
  cgroup?: false | { parent: string };
}

/** Why {@link BubblewrapSandbox.check} found bwrap unusable. */
export type BubblewrapCheck = { available: true } | { available: false; reason: string };

const probes = new Map<string, Promise<BubblewrapCheck>>();

// bwrap's own processes (the outer one and the pid namespace's init) sit in the cgroup too; maxProcesses counts the command's.
const BWRAP_HELPER_PROCESSES = 2;

/** What `create` set up on the host for one sandbox, handed to its constructor together. */
interface BubblewrapHost {
  /** Read-only system mounts passed to bwrap. */
  mounts: string[];
  /** The sandbox's cgroup, or undefined when none could be used. */
  cgroup: SandboxCgroup | undefined;
  /** Limits that hold per process only (see `BubblewrapSandbox.warnings`). */
  warnings: readonly SandboxWarning[];
}

/**
 * A sandbox where every exec runs under bubblewrap.
 *
 * ```ts
 * const sandbox = await BubblewrapSandbox.create({ limits: { cpuSeconds: 10 } });
 * const result = await sandbox.exec('python3 main.py', { timeoutMs: 30_000 });
 * await sandbox.dispose();
 * ```
 */
export class BubblewrapSandbox extends WorkspaceSandbox {
  protected readonly visibleRoot = BWRAP_WORKSPACE;

  private readonly mounts: string[];
  private readonly cgroup: SandboxCgroup | undefined;
  /** Limits that hold per process only on this host (no usable cgroup); empty when all hold for the sandbox as a whole. */
  readonly warnings: readonly SandboxWarning[];

  private constructor(
    prepared: PreparedWorkspace,
    private readonly bwrapOptions: BubblewrapOptions,
    host: BubblewrapHost,
  ) {
    super(
      prepared,
      bwrapOptions,
      new Workspace(prepared.root, {
        visibleRoot: BWRAP_WORKSPACE,
        maxReadBytes: bwrapOptions.maxReadBytes,
        owner: bwrapOptions.runAs,
      }),
    );
    this.mounts = host.mounts;
    this.cgroup = host.cgroup;
    this.warnings = host.warnings;
  }

  /**
   * Creates the workspace and the sandbox, after checking (once per `bwrap`
   * path and user) that bwrap can create its namespaces here.
   * @throws SandboxError `unavailable` when bwrap or prlimit is missing or namespaces cannot be created; the message says which.
   */
  static async create(options: BubblewrapOptions = {}): Promise<BubblewrapSandbox> {
    const check = await BubblewrapSandbox.check(options);
    if (!check.available) throw new SandboxError('unavailable', check.reason);
    return BubblewrapSandbox.open(options);
  }

  /** Whether bwrap works here with these options. The answer is cached per `bwrap` path and user. */
  static check(options: BubblewrapOptions = {}): Promise<BubblewrapCheck> {
    const key = `${options.bwrapPath ?? 'bwrap'}|${options.runAs?.uid ?? ''}`;
    let probe = probes.get(key);
    if (!probe) {
      probe = BubblewrapSandbox.probe(options);
      probes.set(key, probe);
    }
    return probe;
  }

  private static async probe(options: BubblewrapOptions): Promise<BubblewrapCheck> {
    let sandbox: BubblewrapSandbox | undefined;
    try {
      sandbox = await BubblewrapSandbox.open({
        ...options,
        id: undefined,
        workspace: undefined,
        snapshots: undefined,
        cgroup: false,
      });
      const result = await sandbox.exec('true', { timeoutMs: 10_000 });
      if (result.exitCode === 0) return { available: true };
      const detail = result.stderr.trim() || (result.timedOut ? 'timed out' : `exit code ${result.exitCode}`);
      return { available: false, reason: `bwrap cannot start a sandbox here: ${detail}` };
    } catch (error) {
      const bwrap = options.bwrapPath ?? 'bwrap';
      if (error instanceof SandboxError && error.kind === 'unavailable') {
        return {
          available: false,
          reason: `${bwrap} not found: install bubblewrap (apt-get install bubblewrap)`,
        };
      }
      return { available: false, reason: `bwrap probe failed: ${(error as Error).message}` };
    } finally {
      await sandbox?.dispose();
    }
  }

  private static async open(options: BubblewrapOptions): Promise<BubblewrapSandbox> {
    const prepared = await prepareWorkspace(options);
    let cgroup: SandboxCgroup | undefined;
    try {
      if (options.runAs) await chown(prepared.root, options.runAs.uid, options.runAs.gid);
      const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
      const made =
        options.cgroup === false
          ? { unavailable: 'cgroup: false' }
          : await SandboxCgroup.create(
              `tandem-${process.pid}-${resolveRuntime(options.runtime).ids.next('sbx')}`,
              { ...limits, maxProcesses: limits.maxProcesses + BWRAP_HELPER_PROCESSES },
              options.cgroup?.parent,
            );
      cgroup = made instanceof SandboxCgroup ? made : undefined;
      const nprocBinds = options.runAs !== undefined || process.getuid?.() !== 0;
      const warnings = limitWarnings(
        cgroup?.caps,
        limits,
        nprocBinds,
        'unavailable' in made ? made.unavailable : '',
      );
      return new BubblewrapSandbox(prepared, options, {
        mounts: await systemMounts(options.readOnlyPaths),
        cgroup,
        warnings,
      });
    } catch (error) {
      await cgroup?.remove(resolveRuntime(options.runtime).clock);
      if (prepared.owned) await rm(prepared.root, { recursive: true, force: true });
      throw error;
    }
  }

  protected baseEnv(): Record<string, string> {
    return {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: BWRAP_WORKSPACE,
      LANG: 'C.UTF-8',
    };
  }

  protected spawnSpec(argv: string[], cwd: string, env: Record<string, string>): SpawnSpec {
    return {
      file: this.bwrapOptions.bwrapPath ?? 'bwrap',
      args: [
        ...bwrapArgs(this.mounts, this.root, this.visiblePath(cwd)),
        ...prlimitArgv(this.bwrapOptions.limits ?? {}, argv),
      ],
      env,
      cwd: this.root,
      uid: this.bwrapOptions.runAs?.uid,
      gid: this.bwrapOptions.runAs?.gid,
      place: this.cgroup ? (pid) => (this.cgroup as SandboxCgroup).add(pid) : undefined,
    };
  }

  protected override async release(): Promise<void> {
    await this.cgroup?.remove(this.clock);
  }
}
