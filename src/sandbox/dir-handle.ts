/**
 * Directories held open by descriptor, so a path component swapped for a
 * symlink after it was checked cannot redirect what comes after it. Node
 * has no `openat`; on Linux `/proc/self/fd/<fd>/<name>` gives the same
 * guarantee: the kernel jumps to the directory the descriptor holds, then
 * looks up `name` in it. Elsewhere (no `/proc`) the entry is reached by its
 * path, which narrows the race to the instant between check and use.
 * @module
 */
import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Flags of a directory open: never through a symlink, never blocking on a FIFO. */
const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

let procfs: Promise<boolean> | undefined;

function hasProcFd(): Promise<boolean> {
  procfs ??= stat('/proc/self/fd').then(
    () => true,
    () => false,
  );
  return procfs;
}

/** An open directory of the workspace. */
export class DirHandle {
  private constructor(
    private readonly handle: FileHandle,
    /** Its host path, for platforms without `/proc/self/fd`. */
    private readonly hostPath: string,
    private readonly viaProc: boolean,
  ) {}

  /** Opens a directory the caller trusts by path (the workspace root). */
  static async openTrusted(path: string): Promise<DirHandle> {
    return new DirHandle(await open(path, DIRECTORY_FLAGS), path, await hasProcFd());
  }

  /** A path naming `name` in this directory, resolved from the open descriptor; its last component is never followed by `O_NOFOLLOW`, `lstat`, `unlink`, `rmdir`, `mkdir`, `readlink`. */
  at(name: string): string {
    return this.viaProc ? `/proc/self/fd/${this.handle.fd}/${name}` : join(this.hostPath, name);
  }

  /** A path naming this directory itself (for `readdir`). */
  self(): string {
    return this.viaProc ? `/proc/self/fd/${this.handle.fd}` : this.hostPath;
  }

  /**
   * Opens the subdirectory `name` without following a symlink.
   * @throws The raw system error: `ENOTDIR` for a symlink or a non-directory, `ENOENT` when missing.
   */
  async openChild(name: string): Promise<DirHandle> {
    return new DirHandle(await open(this.at(name), DIRECTORY_FLAGS), join(this.hostPath, name), this.viaProc);
  }

  /** Opens the file `name` with `flags` plus `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot stall the open). */
  openFile(name: string, flags: number, mode?: number): Promise<FileHandle> {
    return open(this.at(name), flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  }

  /** Changes the owner of the directory itself, through its descriptor. */
  chown(uid: number, gid: number): Promise<void> {
    return this.handle.chown(uid, gid);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
