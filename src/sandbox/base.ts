/**
 * What both sandboxes share: the workspace, confined file operations, exec
 * bookkeeping (scratch files, deadlines, caps, abort), snapshots and dispose.
 * Subclasses only say how a command is wrapped to run.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { AbortError, isAbortError } from '../core/errors.js';
import type { ExecOptions, ExecResult, FileEntry, Sandbox } from '../core/sandbox.js';
import { type Clock, type IdGenerator, type Runtime, resolveRuntime } from '../core/seams.js';
import { checkEnv, planExec, SCRATCH_DIR, SCRIPT_PLACEHOLDER } from './command.js';
import { SandboxError } from './errors.js';
import { DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, runProcess, type SpawnSpec } from './process.js';
import { type SnapshotOptions, Snapshotter } from './snapshots.js';
import { ensureDirectory, type Workspace } from './workspace.js';

/** Options every sandbox takes. */
export interface SandboxOptions {
  /** Sandbox id. Default: a fresh id from the runtime (`sbx_…`). */
  id?: string;
  /** Use this existing directory as the workspace (kept on dispose). Default: a fresh temp directory, removed on dispose. */
  workspace?: string;
  /** Parent of fresh temp workspaces. Default: the OS temp directory. */
  tempDir?: string;
  /** Environment added to every exec (on top of the scrubbed base). */
  env?: Record<string, string>;
  /** Default deadline of one exec. Default 60 s. */
  timeoutMs?: number;
  /** Default cap on captured stdout and stderr, each. Default 1 MB. */
  maxOutputBytes?: number;
  /** Files larger than this are refused by `readFile`. Default 10 MB. */
  maxReadBytes?: number;
  /** Snapshot storage, paths, size cap and retention. */
  snapshots?: SnapshotOptions;
  /** Clock (exec deadlines, durations) and ids. Default: the real ones. */
  runtime?: Partial<Runtime>;
}

/** The workspace a sandbox starts with. */
export interface PreparedWorkspace {
  root: string;
  owned: boolean;
}

/** Creates the workspace directory named by the options. */
export async function prepareWorkspace(options: SandboxOptions): Promise<PreparedWorkspace> {
  if (options.workspace) return { root: await ensureDirectory(options.workspace), owned: false };
  const created = await mkdtemp(join(options.tempDir ?? tmpdir(), 'tandem-sbx-'));
  return { root: await ensureDirectory(created), owned: true };
}

/** A sandbox over a host directory; subclasses decide how commands run. */
export abstract class WorkspaceSandbox implements Sandbox {
  readonly id: string;
  /** The workspace directory on the host. */
  readonly root: string;
  protected readonly workspace: Workspace;
  protected readonly clock: Clock;
  protected readonly ids: IdGenerator;
  private readonly snapshotter: Snapshotter;
  private readonly owned: boolean;
  private readonly lifetime = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private disposing: Promise<void> | undefined;

  protected constructor(
    prepared: PreparedWorkspace,
    protected readonly options: SandboxOptions,
    workspace: Workspace,
  ) {
    const runtime = resolveRuntime(options.runtime);
    this.clock = runtime.clock;
    this.ids = runtime.ids;
    this.id = options.id ?? this.ids.next('sbx');
    this.root = prepared.root;
    this.owned = prepared.owned;
    this.workspace = workspace;
    this.snapshotter = new Snapshotter(
      {
        workspace,
        clock: this.clock,
        ids: this.ids,
        spawnSpec: (argv) => this.spawnSpec(argv, this.root, this.baseEnv()),
      },
      this.id,
      options.snapshots,
    );
  }

  /** How the sandboxed code sees the workspace root (`/workspace` under bwrap). */
  protected abstract readonly visibleRoot: string;

  /** Wraps `argv` to run in `cwd` (a host path inside the workspace) with exactly `env`. */
  protected abstract spawnSpec(argv: string[], cwd: string, env: Record<string, string>): SpawnSpec;

  /** The environment every exec starts from, before `options.env` and the call's `env`. */
  protected abstract baseEnv(): Record<string, string>;

  /** Frees what the subclass holds besides the workspace, once every exec is over. */
  protected async release(): Promise<void> {}

  /** Where a host path inside the workspace appears to the sandboxed code. */
  protected visiblePath(hostPath: string): string {
    const rel = relative(this.root, hostPath).split(sep).join('/');
    return rel ? `${this.visibleRoot}/${rel}` : this.visibleRoot;
  }

  /**
   * Runs a shell line (`/bin/sh -c`), or `options.code` in `options.language`.
   * A timeout kills the whole process tree and resolves with `timedOut: true`;
   * background processes do not outlive the call.
   * @throws AbortError when `options.signal` aborts (after the tree is dead).
   * @throws SandboxError `disposed`, `invalid`, `path_escape`, `unavailable`.
   */
  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return this.track(() => this.run(command, options));
  }

  /** Writes a file, creating parent directories. */
  writeFile(path: string, content: string | Uint8Array): Promise<void> {
    return this.track(() => this.workspace.writeFile(path, content));
  }

  /** Reads a UTF-8 file. */
  async readFile(path: string): Promise<string> {
    this.assertLive();
    return this.workspace.readFile(path);
  }

  /** Reads a file's bytes (binary artifacts). */
  async readBytes(path: string): Promise<Uint8Array> {
    this.assertLive();
    return this.workspace.readBytes(path);
  }

  /** Lists a directory of the workspace (default its root), sorted by path. */
  async listFiles(path?: string, options?: { recursive?: boolean }): Promise<FileEntry[]> {
    this.assertLive();
    return this.workspace.listFiles(path, options);
  }

  /** Saves the configured paths; returns the snapshot id. */
  snapshot(): Promise<string> {
    return this.track(() => this.snapshotter.save());
  }

  /** Restores a snapshot made by this or another sandbox with the same storage. */
  restore(snapshotId: string): Promise<void> {
    return this.track(() => this.snapshotter.restore(snapshotId));
  }

  /** Restores the newest snapshot of this sandbox's namespace; returns its id, or `undefined` when there is none. */
  restoreLatest(): Promise<string | undefined> {
    return this.track(async () => {
      const latest = await this.snapshotter.latest();
      if (latest) await this.snapshotter.restore(latest);
      return latest;
    });
  }

  /** Kills running execs and removes a temp workspace. Idempotent. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.lifetime.abort(this.disposedError());
      await Promise.allSettled([...this.running]);
      if (this.owned) await rm(this.root, { recursive: true, force: true });
      await this.release();
    })();
    return this.disposing;
  }

  /** True once {@link dispose} was called. */
  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /** Runs an operation dispose waits for, so it cannot write into a workspace being removed. */
  private async track<T>(operation: () => Promise<T>): Promise<T> {
    this.assertLive();
    const work = operation();
    this.running.add(work);
    try {
      return await work;
    } catch (error) {
      if (this.lifetime.signal.aborted && isAbortError(error)) throw this.disposedError();
      throw error;
    } finally {
      this.running.delete(work);
    }
  }

  private async run(command: string, options: ExecOptions): Promise<ExecResult> {
    if (options.signal?.aborted) throw new AbortError(options.signal.reason);
    checkEnv(options.env);
    if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
      throw new SandboxError('invalid', `timeoutMs must be a positive number, got ${options.timeoutMs}`);
    }
    const plan = planExec(command, options, this.ids.next('exec'));
    const cwd = await this.workspace.resolve(options.cwd ?? '.');
    const scriptPath = plan.script ? `${SCRATCH_DIR}/${plan.script.name}` : undefined;
    if (plan.script && scriptPath) await this.workspace.writeFile(scriptPath, plan.script.content);
    const scriptHost = scriptPath ? await this.workspace.resolve(scriptPath) : undefined;
    const argv = plan.argv.map((arg) =>
      arg === SCRIPT_PLACEHOLDER && scriptHost ? this.visiblePath(scriptHost) : arg,
    );
    const env = { ...this.baseEnv(), ...this.options.env, ...options.env };
    try {
      return await runProcess(this.spawnSpec(argv, cwd, env), {
        clock: this.clock,
        stdin: options.stdin,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
        maxOutputBytes: options.maxOutputBytes ?? this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        signals: [options.signal, this.lifetime.signal],
        onOutput: options.onOutput,
      });
    } finally {
      if (scriptPath) await this.workspace.remove(scriptPath);
    }
  }

  private assertLive(): void {
    if (this.disposing) throw this.disposedError();
  }

  private disposedError(): SandboxError {
    return new SandboxError('disposed', `Sandbox ${this.id} is disposed`);
  }
}
