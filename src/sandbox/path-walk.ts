/**
 * Resolution of one workspace path, a directory descriptor at a time. Each
 * component is opened relative to the directory before it with
 * `O_NOFOLLOW`, so a component the sandboxed code swaps for a symlink
 * between two steps is seen as the symlink it now is: its target is read
 * and followed only when it stays inside the workspace, and `..` climbs the
 * stack of directories already open, never the disk.
 * @module
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, readlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { DirHandle } from './dir-handle.js';
import { hasCode, ioError, SandboxError } from './errors.js';

/** Symlinks followed (and races retried) per path before giving up. */
const MAX_HOPS = 40;

/** Where a walk is confined. */
export interface WalkScope {
  /** The workspace on the host (a `realpath`). */
  root: string;
  /** How the sandboxed code sees the root; absolute link targets under it land in the workspace. */
  visibleRoot: string;
  /** The path as the caller gave it, for messages. */
  path: string;
}

/** Options of {@link PathWalk.toLast}. */
export interface DescendOptions {
  /** Open the last component as a directory too (listing). */
  all?: boolean;
  /** Create missing directories, giving them to `owner` when set. */
  create?: boolean;
  owner?: { uid: number; gid: number };
}

/** One path being resolved: the directories open so far (the root first) and the components left. */
export class PathWalk {
  private readonly names: string[] = [];
  private hops = 0;

  private constructor(
    private readonly scope: WalkScope,
    private readonly dirs: DirHandle[],
    private readonly pending: string[],
  ) {}

  /** Starts at the workspace root with `segments` (already free of `.` and of a leading `..`). */
  static async start(scope: WalkScope, segments: string[]): Promise<PathWalk> {
    const root = await DirHandle.openTrusted(scope.root).catch((error: unknown) => {
      throw ioError('Cannot open the workspace', error);
    });
    return new PathWalk(scope, [root], [...segments]);
  }

  /** The path as the caller gave it, for messages. */
  get path(): string {
    return this.scope.path;
  }

  /** The directory reached so far. */
  get dir(): DirHandle {
    return this.dirs[this.dirs.length - 1] as DirHandle;
  }

  /** The workspace-relative path of the directory reached (plus `name`), `''` for the root. */
  relative(name?: string): string {
    return (name === undefined ? this.names : [...this.names, name]).join('/');
  }

  /** The directories reached plus the components not walked, joined lexically (for paths that do not exist yet). */
  lexical(): string {
    const joined = posix.normalize([...this.names, ...this.pending].join('/') || '.');
    if (joined === '..' || joined.startsWith('../')) throw this.escape();
    return joined === '.' ? '' : joined;
  }

  /**
   * Opens every component but the last (every one with `all`) as a directory.
   * @returns The last component, or `undefined` when the path ends at {@link dir}.
   * @throws SandboxError `not_found` (a directory is missing), `invalid` (a component is not a directory), `path_escape`.
   */
  async toLast(options: DescendOptions = {}): Promise<string | undefined> {
    for (;;) {
      const segment = this.pending.shift();
      if (segment === undefined) return undefined;
      if (segment === '..') {
        await this.up();
      } else if (this.pending.length === 0 && !options.all) {
        return segment;
      } else {
        await this.enter(segment, options);
      }
    }
  }

  /** {@link toLast}, but `null` when a directory on the way is missing (see {@link lexical}). */
  async toLastIfAny(): Promise<string | undefined | null> {
    return this.toLast().catch((error: unknown) => {
      if (error instanceof SandboxError && error.kind === 'not_found') return null;
      throw error;
    });
  }

  /**
   * Queues the target of the symlink `name` (just taken off the path) in its place.
   * @throws SandboxError `path_escape` when the target leads out.
   */
  async follow(name: string): Promise<void> {
    this.hop();
    const target = await readlink(this.dir.at(name)).catch((error: unknown) => {
      if (hasCode(error, 'EINVAL') || hasCode(error, 'ENOENT')) return undefined;
      throw ioError(`Cannot read the link ${this.relative(name)}`, error);
    });
    if (target === undefined) {
      // No longer a symlink: the sandbox changed it under us; look again.
      this.pending.unshift(name);
      return;
    }
    if (!target.startsWith('/')) {
      this.pending.unshift(...segments(target));
      return;
    }
    const rest = this.insideRelative(target);
    while (this.dirs.length > 1) await this.up();
    this.pending.unshift(...segments(rest));
  }

  /** Follows `name` when it is a symlink; false when it is anything else or missing. */
  async followIfLink(name: string): Promise<boolean> {
    if (!(await this.inspect(name))?.isSymbolicLink()) return false;
    await this.follow(name);
    return true;
  }

  /** Closes every directory held. */
  async close(): Promise<void> {
    await Promise.all(this.dirs.splice(0).map((dir) => dir.close()));
  }

  private escape(): SandboxError {
    return escapeError(this.scope.path);
  }

  private async up(): Promise<void> {
    if (this.dirs.length === 1) throw this.escape();
    await (this.dirs.pop() as DirHandle).close();
    this.names.pop();
  }

  private async enter(segment: string, options: DescendOptions): Promise<void> {
    const child = await this.dir.openChild(segment).catch((error: unknown) => error as Error);
    if (child instanceof DirHandle) {
      this.dirs.push(child);
      this.names.push(segment);
      return;
    }
    if (hasCode(child, 'ENOENT')) {
      if (options.create) return this.makeDir(segment, options.owner);
      this.pending.unshift(segment);
      throw new SandboxError('not_found', `No such file or directory: ${this.scope.path}`);
    }
    if (!hasCode(child, 'ENOTDIR') && !hasCode(child, 'ELOOP'))
      throw ioError(`Cannot open ${this.relative(segment)}`, child);
    const stats = await this.inspect(segment);
    if (stats?.isSymbolicLink()) return this.follow(segment);
    if (stats && !stats.isDirectory()) {
      throw new SandboxError(
        'invalid',
        `${this.relative(segment)} is not a directory (in ${this.scope.path})`,
      );
    }
    // A directory again, or gone, since the open: the sandbox changed it under us; look again.
    this.hop();
    this.pending.unshift(segment);
  }

  /** Creates `segment`, then opens it like any other component (a swap in between is seen). */
  private async makeDir(segment: string, owner: DescendOptions['owner']): Promise<void> {
    const created = await mkdir(this.dir.at(segment), 0o755).then(
      () => true,
      (error: unknown) => {
        if (hasCode(error, 'EEXIST')) return false;
        throw ioError(`Cannot create ${this.relative(segment)}`, error);
      },
    );
    const child = await this.dir.openChild(segment).catch(() => undefined);
    if (!child) {
      this.hop();
      this.pending.unshift(segment);
      return;
    }
    this.dirs.push(child);
    this.names.push(segment);
    if (created && owner) {
      await child.chown(owner.uid, owner.gid).catch((error: unknown) => {
        throw ioError(`Cannot give ${this.relative()} to the sandbox user`, error);
      });
    }
  }

  private async inspect(name: string): Promise<Stats | undefined> {
    return lstat(this.dir.at(name)).catch((error: unknown) => {
      if (hasCode(error, 'ENOENT')) return undefined;
      throw ioError(`Cannot inspect ${this.relative(name)}`, error);
    });
  }

  private hop(): void {
    if (++this.hops > MAX_HOPS) {
      throw new SandboxError('invalid', `Too many symlinks (or concurrent changes) in ${this.scope.path}`);
    }
  }

  private insideRelative(target: string): string {
    const normal = posix.normalize(target);
    for (const base of [this.scope.visibleRoot, this.scope.root]) {
      if (normal === base) return '';
      if (normal.startsWith(`${base}/`)) return normal.slice(base.length + 1);
    }
    throw this.escape();
  }
}

/** The typed error of `path` leading out of the workspace. */
export function escapeError(path: string): SandboxError {
  return new SandboxError('path_escape', `Path ${JSON.stringify(path)} leads outside the workspace`);
}

/** The components of a relative path, without empty ones and `.`. */
export function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}
