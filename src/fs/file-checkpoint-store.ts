/**
 * `FileCheckpointStore`: one JSON file per run in a directory, written
 * atomically (temp file, then rename) so a crash mid-write leaves the
 * previous checkpoint intact. Run ids are encoded into file names, so no id
 * can name a path outside the directory. Temp files a crash left behind are
 * deleted by a later save or list once they are old enough that no writer
 * can still be working on them.
 * @module
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';
import {
  assertRunId,
  CheckpointError,
  type CheckpointStore,
  checkpointRevision,
  decodeCheckpoint,
  encodeCheckpoint,
} from '../state/checkpoint-store.js';

const SUFFIX = '.json';

/** Temp files this store writes: `<encoded id>.json.<pid>.<counter>.tmp`. */
const TEMP_NAME = /^[A-Za-z0-9_%-]+\.json\.\d+\.\d+\.tmp$/;

/** Default of `staleTempMs`: 5 minutes. */
export const STALE_TEMP_MS = 5 * 60_000;

/** Options of a {@link FileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /** Directory of the checkpoint files; created on first save. */
  dir: string;
  /**
   * Flush the checkpoint to disk before it replaces the previous one, and
   * the directory after, so a save that resolved survives a power loss or
   * an OS crash, not only a process crash. Slower. Default false.
   */
  fsync?: boolean;
  /**
   * Age after which a temp file of an interrupted write is deleted (by the
   * next save, at most once per this period, and by every `list`). Younger
   * ones may belong to a writer in another process and are left alone.
   * Default 5 minutes.
   */
  staleTempMs?: number;
  /** Clock the age of temp files is measured on. Default: the system clock. */
  clock?: Clock;
}

let tempCounter = 0;
/** Temp files being written by this process, never swept whatever their age. */
const writing = new Set<string>();

/** A {@link CheckpointStore} on the local filesystem (Node). */
export class FileCheckpointStore<S = unknown> implements CheckpointStore<S> {
  /** The directory holding the files. */
  readonly dir: string;
  private readonly fsync: boolean;
  private readonly staleTempMs: number;
  private readonly clock: Clock;
  private lastSweep?: number;

  /** @throws ConfigError for a `staleTempMs` that is not a positive number. */
  constructor(options: FileCheckpointStoreOptions) {
    this.dir = options.dir;
    this.fsync = options.fsync ?? false;
    this.staleTempMs = options.staleTempMs ?? STALE_TEMP_MS;
    if (!(this.staleTempMs > 0)) {
      throw new ConfigError(`FileCheckpointStore: staleTempMs must be positive, got ${options.staleTempMs}`);
    }
    this.clock = options.clock ?? systemClock;
  }

  /** The file holding `runId`'s checkpoint. */
  pathOf(runId: string): string {
    assertRunId(runId);
    return join(this.dir, encodeRunId(runId) + SUFFIX);
  }

  async save(runId: string, state: S): Promise<void> {
    const path = this.pathOf(runId);
    const text = encodeCheckpoint(runId, state);
    const temp = `${path}.${process.pid}.${tempCounter++}.tmp`;
    writing.add(temp);
    try {
      await mkdir(this.dir, { recursive: true });
      if (this.sweepDue()) await this.sweep(await readdir(this.dir).catch(() => []));
      await this.write(temp, text);
      await rename(temp, path);
      if (this.fsync) await syncDirectory(this.dir);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new CheckpointError('io', `Could not save the checkpoint of run ${runId} to ${path}`, {
        cause: error,
      });
    } finally {
      writing.delete(temp);
    }
  }

  /**
   * Compare-and-set under a lock file (`<encoded id>.json.lock`, created
   * exclusively): a claim that finds another claim of the run in progress
   * loses at once. A lock older than `staleTempMs` was left by a claim that
   * crashed and is taken over.
   */
  async saveIf(runId: string, state: S, expected: number): Promise<boolean> {
    const path = this.pathOf(runId);
    const lock = `${path}.lock`;
    try {
      await mkdir(this.dir, { recursive: true });
      if (!(await this.lock(lock))) return false;
    } catch (error) {
      throw new CheckpointError('io', `Could not lock the checkpoint of run ${runId} at ${lock}`, {
        cause: error,
      });
    }
    try {
      const stored = await this.load(runId);
      if (stored !== undefined && checkpointRevision(stored) !== expected) return false;
      await this.save(runId, state);
      return true;
    } finally {
      await rm(lock, { force: true }).catch(() => undefined);
    }
  }

  async load(runId: string): Promise<S | undefined> {
    const path = this.pathOf(runId);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw new CheckpointError('io', `Could not read the checkpoint of run ${runId} from ${path}`, {
        cause: error,
      });
    }
    return decodeCheckpoint<S>(runId, text);
  }

  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw new CheckpointError('io', `Could not list checkpoints in ${this.dir}`, { cause: error });
    }
    await this.sweep(names);
    return names.filter((n) => n.endsWith(SUFFIX)).map((n) => decodeURIComponent(n.slice(0, -SUFFIX.length)));
  }

  async delete(runId: string): Promise<boolean> {
    const path = this.pathOf(runId);
    try {
      await rm(path);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw new CheckpointError('io', `Could not delete the checkpoint of run ${runId}`, { cause: error });
    }
  }

  private async write(temp: string, text: string): Promise<void> {
    if (!this.fsync) return writeFile(temp, text, 'utf8');
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Creates the lock file; false when another claim holds it. */
  private async lock(path: string, takeOver = true): Promise<boolean> {
    try {
      await (await open(path, 'wx')).close();
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    if (!takeOver) return false;
    // Gone since: the other claim just ended, and the revision check decides.
    const modified = await stat(path).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    if (modified !== undefined && this.clock.now() - modified < this.staleTempMs) return false;
    await rm(path, { force: true });
    return this.lock(path, false);
  }

  private sweepDue(): boolean {
    return this.lastSweep === undefined || this.clock.now() - this.lastSweep >= this.staleTempMs;
  }

  /**
   * Deletes the stale temp files among `names`. Best effort: a file another
   * sweeper deleted, or its writer renamed, meanwhile is no failure.
   */
  private async sweep(names: string[]): Promise<void> {
    this.lastSweep = this.clock.now();
    const cutoff = this.lastSweep - this.staleTempMs;
    const stale = async (path: string) => !writing.has(path) && (await stat(path)).mtimeMs <= cutoff;
    await Promise.all(
      names
        .filter((name) => TEMP_NAME.test(name))
        .map((name) => join(this.dir, name))
        .map(async (path) => {
          if (await stale(path).catch(() => false)) await rm(path, { force: true }).catch(() => undefined);
        }),
    );
  }
}

/**
 * Flushes a directory's entries, making a rename in it durable. Windows
 * cannot open a directory to flush it; there the file's own flush is all
 * Node offers.
 */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Every character outside `[A-Za-z0-9_-]` percent-encoded: no `/`, `\`, `.` or `..` survives. */
function encodeRunId(runId: string): string {
  return encodeURIComponent(runId).replace(
    /[.!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
