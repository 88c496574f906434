/**
 * Snapshots of a workspace: a gzipped tar of configured paths, made and
 * unpacked by the system `tar`, kept in a {@link SnapshotStorage} with a
 * keep-last-N retention.
 * @module
 */
import type { Clock, IdGenerator } from '../core/seams.js';
import { SandboxError } from './errors.js';
import { runProcessRaw, type SpawnSpec } from './process.js';
import { assertSnapshotKey, LocalSnapshotStorage, type SnapshotStorage } from './snapshot-storage.js';
import type { Workspace } from './workspace.js';

/** Default cap on one snapshot (compressed): 100 MB. */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 100 * 1024 * 1024;

/** Default number of snapshots kept per namespace: 5. */
export const DEFAULT_SNAPSHOT_KEEP_LAST = 5;

/** Default deadline of one `tar` run: 120 s. */
export const DEFAULT_TAR_TIMEOUT_MS = 120_000;

/** Snapshot settings of a sandbox. */
export interface SnapshotOptions {
  /** Where snapshots go. Default: a {@link LocalSnapshotStorage} under the OS temp directory. */
  storage?: SnapshotStorage;
  /** Groups the snapshots of one logical session (e.g. `user:task`); retention counts per namespace. Default: the sandbox id. */
  namespace?: string;
  /** Workspace paths saved and restored. Default `['.']` (the whole workspace). */
  paths?: string[];
  /** Larger snapshots are refused with `too_large`. Default 100 MB. */
  maxBytes?: number;
  /** Snapshots kept per namespace; older ones are deleted after each save. Default 5. */
  keepLast?: number;
  /** The `tar` executable, run the way the sandbox runs commands (under bwrap: inside it). Default `tar` on the sandbox PATH. */
  tarPath?: string;
  /** Deadline of one `tar` run. Default 120 s. */
  timeoutMs?: number;
}

/** What a {@link Snapshotter} needs from its sandbox. */
export interface SnapshotterDeps {
  workspace: Workspace;
  clock: Clock;
  ids: IdGenerator;
  /**
   * How `tar` runs: in the workspace root, the sandbox's own way. Under bwrap
   * it runs inside the sandbox as the sandbox user, so unpacking can touch
   * nothing but the workspace, whatever the sandboxed code changes meanwhile.
   */
  spawnSpec: (argv: string[]) => SpawnSpec;
}

/** Saves and restores one workspace. */
export class Snapshotter {
  readonly storage: SnapshotStorage;
  readonly namespace: string;
  private readonly paths: string[];
  private readonly maxBytes: number;
  private readonly keepLast: number;

  constructor(
    private readonly deps: SnapshotterDeps,
    defaultNamespace: string,
    private readonly options: SnapshotOptions = {},
  ) {
    this.storage = options.storage ?? new LocalSnapshotStorage();
    this.namespace = (options.namespace ?? defaultNamespace).replace(/[^A-Za-z0-9._:-]/g, '_');
    assertSnapshotKey(this.namespace);
    this.paths = options.paths ?? ['.'];
    this.maxBytes = options.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES;
    this.keepLast = options.keepLast ?? DEFAULT_SNAPSHOT_KEEP_LAST;
    if (!Number.isInteger(this.keepLast) || this.keepLast < 1) {
      throw new SandboxError('invalid', `snapshots.keepLast must be an integer ≥ 1, got ${this.keepLast}`);
    }
  }

  /**
   * Tars the configured paths that exist into storage and applies retention.
   * @returns The snapshot id (its storage key).
   * @throws SandboxError `too_large` over `maxBytes`.
   */
  async save(): Promise<string> {
    const members = await this.existingMembers();
    const list = Buffer.from(members.map((m) => `${m}\0`).join(''));
    const result = await this.tar(['-czf', '-', '--null', '-T', '-'], list, {
      maxOutputBytes: this.maxBytes,
      stopAtCap: true,
    });
    if (result.truncated) {
      throw new SandboxError('too_large', `Snapshot is over the ${this.maxBytes}-byte cap`);
    }
    const key = `${this.namespace}/${String(this.deps.clock.now()).padStart(15, '0')}-${this.deps.ids.next('s')}.tgz`;
    await this.storage.put(key, result.stdout);
    await this.prune();
    return key;
  }

  /**
   * Replaces the configured paths with their content in snapshot `id`: files
   * created since are removed.
   * @throws SandboxError `not_found` for an unknown id.
   */
  async restore(id: string): Promise<void> {
    assertSnapshotKey(id);
    const data = await this.storage.get(id);
    if (!data) throw new SandboxError('not_found', `No snapshot ${id}`);
    for (const path of this.paths) await this.deps.workspace.remove(path);
    await this.tar(['-xzf', '-', '--no-same-owner'], data, { maxOutputBytes: 64 * 1024, stopAtCap: false });
  }

  /** The newest snapshot of this namespace, if any. */
  async latest(): Promise<string | undefined> {
    return (await this.sorted()).at(-1);
  }

  private async prune(): Promise<void> {
    const keys = await this.sorted();
    for (const key of keys.slice(0, Math.max(0, keys.length - this.keepLast))) await this.storage.delete(key);
  }

  private async sorted(): Promise<string[]> {
    return (await this.storage.list(`${this.namespace}/`)).sort();
  }

  private async existingMembers(): Promise<string[]> {
    const members: string[] = [];
    for (const path of this.paths) {
      const entry = await this.deps.workspace.stat(path).catch((error: unknown) => {
        if (error instanceof SandboxError && error.kind === 'not_found') return undefined;
        throw error;
      });
      // `./` keeps a name like `-x` from reading as an option.
      if (entry) members.push(`./${entry.path}`);
    }
    return members;
  }

  /** Runs tar; `output` caps what it prints and says whether reaching the cap ends it (creation) or fails it. */
  private async tar(args: string[], stdin: Uint8Array, output: TarOutput) {
    const { maxOutputBytes, stopAtCap } = output;
    const result = await runProcessRaw(this.deps.spawnSpec([this.options.tarPath ?? 'tar', ...args]), {
      clock: this.deps.clock,
      stdin,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TAR_TIMEOUT_MS,
      maxOutputBytes,
      stopAtCap,
      signals: [],
    });
    if (result.timedOut) throw new SandboxError('timeout', `tar ${args[0]} timed out`);
    if (result.exitCode !== 0 && !(stopAtCap && result.truncated)) {
      throw new SandboxError(
        'io',
        `tar ${args[0]} failed (${result.exitCode}): ${result.stderr.toString('utf8')}`,
      );
    }
    return result;
  }
}

/** How much output one tar run may produce, and whether hitting that cap stops it as a success. */
interface TarOutput {
  /** Bytes of stdout kept before the cap is reached. */
  maxOutputBytes: number;
  /** Stop at the cap and keep what was read (an archive too big), instead of failing. */
  stopAtCap: boolean;
}
