/**
 * `FileCheckpointStore`: one JSON file per run in a directory, written
 * atomically (temp file, then rename) so a crash mid-write leaves the
 * previous checkpoint intact. Run ids are encoded into file names, so no id
 * can name a path outside the directory.
 * @module
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertRunId,
  CheckpointError,
  type CheckpointStore,
  decodeCheckpoint,
  encodeCheckpoint,
} from '../state/checkpoint-store.js';

const SUFFIX = '.json';

/** Options of a {@link FileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /** Directory of the checkpoint files; created on first save. */
  dir: string;
}

let tempCounter = 0;

/** A {@link CheckpointStore} on the local filesystem (Node). */
export class FileCheckpointStore<S = unknown> implements CheckpointStore<S> {
  /** The directory holding the files. */
  readonly dir: string;

  constructor(options: FileCheckpointStoreOptions) {
    this.dir = options.dir;
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
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(temp, text, 'utf8');
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new CheckpointError('io', `Could not save the checkpoint of run ${runId} to ${path}`, {
        cause: error,
      });
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
