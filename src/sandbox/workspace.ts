/**
 * File access confined to a workspace directory. Every path is resolved one
 * component at a time: `..` may not climb above the root, absolute paths are
 * refused unless they name the workspace as the sandboxed code sees it, and a
 * symlink is followed only when its target stays inside the workspace. The
 * final open uses `O_NOFOLLOW`, so a symlink swapped in after the check is
 * refused rather than followed.
 * @module
 */
import { constants } from 'node:fs';
import { chown, lstat, mkdir, open, readdir, readlink, realpath } from 'node:fs/promises';
import { dirname, join, posix, relative, sep } from 'node:path';
import type { FileEntry } from '../core/sandbox.js';
import { hasCode, SandboxError } from './errors.js';

/** Default cap of {@link Workspace.readFile}: 10 MB. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

/** Default cap on entries {@link Workspace.listFiles} returns: 10 000. */
export const DEFAULT_MAX_LIST_ENTRIES = 10_000;

const MAX_SYMLINK_HOPS = 40;

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
   * Components that do not exist yet are appended as given.
   * @throws SandboxError `path_escape` when the path or a symlink on it leads out.
   */
  async resolve(path: string): Promise<string> {
    const pending = this.relativeSegments(path);
    let current = this.root;
    let hops = 0;
    while (pending.length > 0) {
      const segment = pending.shift() as string;
      if (segment === '..') {
        if (current === this.root) throw this.escape(path);
        current = dirname(current);
        continue;
      }
      const next = join(current, segment);
      const stats = await lstat(next).catch((error: unknown) => {
        if (hasCode(error, 'ENOENT')) return undefined;
        throw ioError(`Cannot inspect ${path}`, error);
      });
      if (!stats) {
        // The rest does not exist yet: no symlinks left to follow, so lexical resolution is exact.
        const missing = join(next, ...pending);
        if (!this.inside(missing)) throw this.escape(path);
        return missing;
      }
      if (!stats.isSymbolicLink()) {
        current = next;
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) throw new SandboxError('invalid', `Too many symlinks in ${path}`);
      const target = await readlink(next);
      if (target.startsWith('/')) {
        // Code inside bwrap links to `/workspace/...`; on the host that is the root.
        const visible = this.options.visibleRoot;
        const inWorkspace = visible && (target === visible || target.startsWith(`${visible}/`));
        const host = inWorkspace ? join(this.root, target.slice(visible.length)) : posix.normalize(target);
        if (!this.inside(host)) throw this.escape(path);
        current = this.root;
        pending.unshift(...splitSegments(relative(this.root, host)));
      } else {
        pending.unshift(...splitSegments(target));
      }
    }
    return current;
  }

  /** Writes a file, creating its parent directories. */
  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const target = await this.resolve(path);
    if (target === this.root) throw new SandboxError('invalid', 'Cannot write to the workspace root');
    const firstCreated = await mkdir(dirname(target), { recursive: true }).catch((error: unknown) => {
      throw ioError(`Cannot create the directories of ${path}`, error);
    });
    const handle = await open(
      target,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    ).catch((error: unknown) => {
      if (hasCode(error, 'ELOOP')) throw this.escape(path);
      if (hasCode(error, 'EISDIR')) throw new SandboxError('invalid', `${path} is a directory`);
      throw ioError(`Cannot write ${path}`, error);
    });
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    if (this.options.owner) await this.chownCreated(firstCreated, target);
  }

  /** Reads a UTF-8 text file. */
  async readFile(path: string): Promise<string> {
    return Buffer.from(await this.readBytes(path)).toString('utf8');
  }

  /** Reads a file's bytes. */
  async readBytes(path: string): Promise<Uint8Array> {
    const target = await this.resolve(path);
    const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) => {
      if (hasCode(error, 'ENOENT')) throw new SandboxError('not_found', `No such file: ${path}`);
      if (hasCode(error, 'ELOOP')) throw this.escape(path);
      throw ioError(`Cannot read ${path}`, error);
    });
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new SandboxError('invalid', `${path} is a directory`);
      if (stats.size > this.maxReadBytes) {
        throw new SandboxError(
          'too_large',
          `${path} is ${stats.size} bytes, over the ${this.maxReadBytes}-byte cap`,
        );
      }
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * Lists a directory (default the root), sorted by path. Paths are relative
   * to the root. Symlinks and special files are left out.
   */
  async listFiles(path = '.', options: { recursive?: boolean } = {}): Promise<FileEntry[]> {
    const start = await this.resolve(path);
    const stats = await lstat(start).catch((error: unknown) => {
      if (hasCode(error, 'ENOENT')) throw new SandboxError('not_found', `No such directory: ${path}`);
      throw ioError(`Cannot list ${path}`, error);
    });
    if (!stats.isDirectory()) throw new SandboxError('invalid', `${path} is not a directory`);
    const entries: FileEntry[] = [];
    await this.walk(start, options.recursive ?? false, entries);
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async walk(dir: string, recursive: boolean, out: FileEntry[]): Promise<void> {
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, dirent.name);
      const path = relative(this.root, full).split(sep).join('/');
      if (dirent.isDirectory()) out.push({ path, type: 'directory', size: 0 });
      else if (dirent.isFile()) out.push({ path, type: 'file', size: (await lstat(full)).size });
      else continue;
      if (out.length > this.maxListEntries) {
        throw new SandboxError('too_large', `More than ${this.maxListEntries} entries; list a subdirectory`);
      }
      if (recursive && dirent.isDirectory()) await this.walk(full, true, out);
    }
  }

  private relativeSegments(path: string): string[] {
    if (path.includes('\0')) throw new SandboxError('invalid', 'Path contains a NUL byte');
    const visible = this.options.visibleRoot ?? this.root;
    let rest = posix.normalize(path.trim() || '.');
    if (rest.startsWith('/')) {
      if (rest !== visible && !rest.startsWith(`${visible}/`)) throw this.escape(path);
      rest = rest.slice(visible.length) || '.';
    }
    if (rest === '..' || rest.startsWith('../')) throw this.escape(path);
    return splitSegments(rest);
  }

  private inside(hostPath: string): boolean {
    return hostPath === this.root || hostPath.startsWith(this.root + sep);
  }

  private escape(path: string): SandboxError {
    return new SandboxError('path_escape', `Path ${JSON.stringify(path)} leads outside the workspace`);
  }

  private async chownCreated(firstCreated: string | undefined, file: string): Promise<void> {
    const { uid, gid } = this.options.owner as { uid: number; gid: number };
    if (firstCreated) {
      let dir = firstCreated;
      for (const segment of splitSegments(relative(firstCreated, dirname(file)))) {
        await chown(dir, uid, gid);
        dir = join(dir, segment);
      }
      await chown(dir, uid, gid);
    }
    await chown(file, uid, gid);
  }
}

function splitSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

function ioError(message: string, cause: unknown): SandboxError {
  return new SandboxError('io', `${message}: ${(cause as Error).message}`, { cause });
}

/** Resolves a directory with `realpath`, creating it first. */
export async function ensureDirectory(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  return realpath(path);
}
