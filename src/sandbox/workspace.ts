/**
 * File access confined to a workspace directory the sandboxed code can
 * change at any moment. Every operation walks its path from the root one
 * directory descriptor at a time ({@link PathWalk}): `..` may not climb
 * above the root, absolute paths are refused unless they name the workspace
 * as the sandboxed code sees it, a symlink is followed only when its target
 * stays inside, and the last component is opened, created, removed or
 * re-owned relative to its parent's descriptor without following a link.
 * A directory swapped for a symlink between two steps is therefore seen,
 * never followed out. Opens never block on a FIFO.
 * @module
 */
import { constants } from 'node:fs';
import { type FileHandle, lchown, lstat, mkdir, readdir, realpath, rmdir, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileEntry } from '../core/sandbox.js';
import type { DirHandle } from './dir-handle.js';
import { hasCode, ioError, SandboxError } from './errors.js';
import { type DescendOptions, escapeError, PathWalk, segments } from './path-walk.js';

/** Default cap of {@link Workspace.readFile}: 10 MB. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

/** Default cap on entries {@link Workspace.listFiles} returns: 10 000. */
export const DEFAULT_MAX_LIST_ENTRIES = 10_000;

/** Options of a {@link Workspace}. */
export interface WorkspaceOptions {
  /** How the sandboxed code sees the root (`/workspace` under bwrap); absolute paths under it are accepted. */
  visibleRoot?: string;
  /** Files larger than this are refused with `too_large`. Default 10 MB. */
  maxReadBytes?: number;
  /** Listings longer than this are refused with `too_large`. Default 10 000. */
  maxListEntries?: number;
  /** Owner given to files and directories written from the host (when the sandbox runs as another user). */
  owner?: { uid: number; gid: number };
}

/** Confined file operations on one directory. */
export class Workspace {
  private readonly maxReadBytes: number;
  private readonly maxListEntries: number;

  /** @param root The workspace directory, already resolved with `realpath`. */
  constructor(
    readonly root: string,
    private readonly options: WorkspaceOptions = {},
  ) {
    this.maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
    this.maxListEntries = options.maxListEntries ?? DEFAULT_MAX_LIST_ENTRIES;
  }

  /**
   * The host path of a workspace path, with every symlink on the way resolved.
   * Components that do not exist yet are appended as given. The answer is a
   * snapshot: use it where the sandbox's own view applies (a working directory).
   * @throws SandboxError `path_escape` when the path or a symlink on it leads out.
   */
  resolve(path: string): Promise<string> {
    return this.walk(path, async (walk) => {
      for (;;) {
        const name = await walk.toLastIfAny();
        if (name === null) return this.hostPath(walk.lexical());
        if (name === undefined) return this.hostPath(walk.relative());
        if (!(await walk.followIfLink(name))) return this.hostPath(walk.relative(name));
      }
    });
  }

  /**
   * What a workspace path is, after symlinks inside: its resolved path, type and size.
   * @throws SandboxError `not_found`; `invalid` for a special file (FIFO, socket).
   */
  stat(path: string): Promise<FileEntry> {
    return this.walk(path, async (walk) => {
      for (;;) {
        const name = await walk.toLast();
        if (name === undefined) return { path: walk.relative(), type: 'directory', size: 0 };
        const stats = await lstat(walk.dir.at(name)).catch((error: unknown) => {
          if (hasCode(error, 'ENOENT')) throw new SandboxError('not_found', `No such file: ${path}`);
          throw ioError(`Cannot inspect ${path}`, error);
        });
        if (stats.isSymbolicLink()) await walk.follow(name);
        else if (stats.isDirectory()) return { path: walk.relative(name), type: 'directory', size: 0 };
        else if (stats.isFile()) return { path: walk.relative(name), type: 'file', size: stats.size };
        else throw new SandboxError('invalid', `${path} is not a regular file`);
      }
    });
  }

  /** Writes a file, creating its parent directories. */
  writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const owner = this.options.owner;
    return this.walk(path, async (walk) => {
      const handle = await openLast(walk, constants.O_WRONLY | constants.O_CREAT, { create: true, owner });
      try {
        if (!(await handle.stat()).isFile())
          throw new SandboxError('invalid', `${path} is not a regular file`);
        await handle.truncate(0);
        await handle.writeFile(content);
        if (owner) await handle.chown(owner.uid, owner.gid);
      } catch (error) {
        throw error instanceof SandboxError ? error : ioError(`Cannot write ${path}`, error);
      } finally {
        await handle.close();
      }
    });
  }

  /** Reads a UTF-8 text file. */
  async readFile(path: string): Promise<string> {
    return Buffer.from(await this.readBytes(path)).toString('utf8');
  }

  /** Reads a file's bytes. */
  readBytes(path: string): Promise<Uint8Array> {
    return this.walk(path, async (walk) => {
      const handle = await openLast(walk, constants.O_RDONLY);
      try {
        return await this.readCapped(handle, path);
      } finally {
        await handle.close();
      }
    });
  }

  /**
   * Lists a directory (default the root), sorted by path. Paths are relative
   * to the root. Symlinks and special files are left out.
   */
  listFiles(path = '.', options: { recursive?: boolean } = {}): Promise<FileEntry[]> {
    return this.walk(path, async (walk) => {
      await walk.toLast({ all: true });
      const entries: FileEntry[] = [];
      await this.list(walk.dir, walk.relative(), { recursive: options.recursive ?? false, entries });
      return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  }

  /**
   * Deletes a file, a symlink (not its target) or a directory tree; for the
   * root, everything in it. A missing path is not an error.
   */
  remove(path: string): Promise<void> {
    return this.walk(path, async (walk) => {
      const name = await walk.toLastIfAny();
      if (name === null) return;
      if (name === undefined) await this.clear(walk.dir, path);
      else await this.removeEntry(walk.dir, name, path);
    });
  }

  /** Gives a path (not a symlink's target) and, with `recursive`, everything under it to `owner`. */
  chown(
    path: string,
    owner: { uid: number; gid: number },
    options: { recursive?: boolean } = {},
  ): Promise<void> {
    return this.walk(path, async (walk) => {
      const name = await walk.toLast();
      if (name === undefined) {
        await walk.dir.chown(owner.uid, owner.gid).catch((error: unknown) => {
          throw ioError(`Cannot change the owner of ${path}`, error);
        });
        if (options.recursive) await this.chownChildren(walk.dir, { owner, recursive: true, path });
      } else {
        await this.chownEntry(walk.dir, name, { owner, recursive: options.recursive ?? false, path });
      }
    });
  }

  private async walk<T>(path: string, operation: (walk: PathWalk) => Promise<T>): Promise<T> {
    const scope = { root: this.root, visibleRoot: this.options.visibleRoot ?? this.root, path };
    const walk = await PathWalk.start(scope, this.relativeSegments(path, scope));
    try {
      return await operation(walk);
    } finally {
      await walk.close();
    }
  }

  private relativeSegments(path: string, scope: { visibleRoot: string }): string[] {
    if (path.includes('\0')) throw new SandboxError('invalid', 'Path contains a NUL byte');
    let rest = posix.normalize(path.trim() || '.');
    if (rest.startsWith('/')) {
      if (rest !== scope.visibleRoot && !rest.startsWith(`${scope.visibleRoot}/`)) throw escapeError(path);
      rest = rest.slice(scope.visibleRoot.length) || '.';
    }
    if (rest === '..' || rest.startsWith('../')) throw escapeError(path);
    return segments(rest);
  }

  private hostPath(relative: string): string {
    return relative ? join(this.root, relative) : this.root;
  }

  /** Reads at most the cap plus one byte: a file that grows while it is read is refused, not read without end. */
  private async readCapped(handle: FileHandle, path: string): Promise<Uint8Array> {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new SandboxError('invalid', `${path} is a directory`);
    if (!stats.isFile()) throw new SandboxError('invalid', `${path} is not a regular file`);
    const tooLarge = (size: number) =>
      new SandboxError('too_large', `${path} is ${size} bytes, over the ${this.maxReadBytes}-byte cap`);
    if (stats.size > this.maxReadBytes) throw tooLarge(stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const room = this.maxReadBytes + 1 - total;
      const chunk = Buffer.alloc(Math.min(room, Math.max(stats.size + 1 - total, 64 * 1024)));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > this.maxReadBytes) throw tooLarge(total);
    }
  }

  private async list(dir: DirHandle, prefix: string, listing: Listing): Promise<void> {
    const { recursive, entries: out } = listing;
    const dirents = await readdir(dir.self(), { withFileTypes: true }).catch((error: unknown) => {
      throw ioError(`Cannot list ${prefix || '.'}`, error);
    });
    for (const dirent of dirents) {
      const path = prefix ? `${prefix}/${dirent.name}` : dirent.name;
      if (dirent.isDirectory()) {
        out.push({ path, type: 'directory', size: 0 });
      } else if (dirent.isFile()) {
        // Read without following: an entry swapped for a link since the listing is left out.
        const stats = await lstat(dir.at(dirent.name)).catch(() => undefined);
        if (!stats?.isFile()) continue;
        out.push({ path, type: 'file', size: stats.size });
      } else {
        continue;
      }
      if (out.length > this.maxListEntries) {
        throw new SandboxError('too_large', `More than ${this.maxListEntries} entries; list a subdirectory`);
      }
      if (recursive && dirent.isDirectory()) {
        const child = await dir.openChild(dirent.name).catch(() => undefined);
        if (!child) continue;
        try {
          await this.list(child, path, listing);
        } finally {
          await child.close();
        }
      }
    }
  }

  private async removeEntry(dir: DirHandle, name: string, path: string): Promise<void> {
    const stats = await lstat(dir.at(name)).catch(() => undefined);
    if (!stats) return;
    try {
      if (!stats.isDirectory()) return await unlink(dir.at(name));
      const child = await dir.openChild(name);
      try {
        await this.clear(child, path);
      } finally {
        await child.close();
      }
      await rmdir(dir.at(name));
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return;
      throw error instanceof SandboxError ? error : ioError(`Cannot remove ${path}`, error);
    }
  }

  private async clear(dir: DirHandle, path: string): Promise<void> {
    const names = await readdir(dir.self()).catch((error: unknown) => {
      throw ioError(`Cannot list ${path}`, error);
    });
    for (const name of names) await this.removeEntry(dir, name, path);
  }

  private async chownEntry(dir: DirHandle, name: string, job: ChownJob): Promise<void> {
    const { owner, recursive, path } = job;
    try {
      await lchown(dir.at(name), owner.uid, owner.gid);
      if (!recursive || !(await lstat(dir.at(name))).isDirectory()) return;
      const child = await dir.openChild(name);
      try {
        await this.chownChildren(child, job);
      } finally {
        await child.close();
      }
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return;
      throw error instanceof SandboxError ? error : ioError(`Cannot change the owner of ${path}`, error);
    }
  }

  /** Gives everything in `dir` to `job.owner`; only called for a recursive job. */
  private async chownChildren(dir: DirHandle, job: ChownJob): Promise<void> {
    const { path } = job;
    const names = await readdir(dir.self()).catch((error: unknown) => {
      throw ioError(`Cannot list ${path}`, error);
    });
    for (const name of names) await this.chownEntry(dir, name, job);
  }
}

/** One listing in progress, shared by the recursive calls. */
interface Listing {
  /** Whether subdirectories are listed too. */
  recursive: boolean;
  /** Entries found so far; the cap on entries counts these. */
  entries: FileEntry[];
}

/** One `chown` in progress, shared by the recursive calls. */
interface ChownJob {
  owner: { uid: number; gid: number };
  /** Whether directories are entered. */
  recursive: boolean;
  /** The path as the caller gave it, for messages. */
  path: string;
}

/**
 * Opens the file the walk ends at, never through a symlink: a link met last
 * is followed like any other, inside the workspace only.
 */
async function openLast(walk: PathWalk, flags: number, options?: DescendOptions): Promise<FileHandle> {
  const path = walk.path;
  for (;;) {
    const name = await walk.toLast(options);
    if (name === undefined) throw new SandboxError('invalid', `${path} is a directory`);
    const handle = await walk.dir.openFile(name, flags, 0o644).catch((error: unknown) => {
      if (hasCode(error, 'ELOOP')) return undefined;
      if (hasCode(error, 'ENOENT')) throw new SandboxError('not_found', `No such file: ${path}`);
      if (hasCode(error, 'EISDIR')) throw new SandboxError('invalid', `${path} is a directory`);
      // A FIFO nobody reads cannot be opened for writing without blocking.
      if (hasCode(error, 'ENXIO')) throw new SandboxError('invalid', `${path} is not a regular file`);
      throw ioError(`Cannot open ${path}`, error);
    });
    if (handle) return handle;
    await walk.follow(name);
  }
}

/** Resolves a directory with `realpath`, creating it first. */
export async function ensureDirectory(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  return realpath(path);
}
