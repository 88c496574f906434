/**
 * Where snapshots are kept. The default is a local directory; implement
 * {@link SnapshotStorage} to keep them in an object store.
 * @module
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hasCode, SandboxError } from './errors.js';

/** Bytes by key. Keys are `namespace/name`, made of `[A-Za-z0-9._:-]` segments. */
export interface SnapshotStorage {
  put(key: string, data: Uint8Array): Promise<void>;
  /** The bytes, or `undefined` when there is no such key. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Keys under a `namespace/` prefix, in any order. */
  list(prefix: string): Promise<string[]>;
  /** Removes a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Default directory of {@link LocalSnapshotStorage}: `<os tmpdir>/tandem-snapshots`. */
export function defaultSnapshotDirectory(): string {
  return join(tmpdir(), 'tandem-snapshots');
}

const KEY = /^[A-Za-z0-9._:-]+(\/[A-Za-z0-9._:-]+)*$/;

/** Checks a storage key; `.` and `..` segments are refused so a key cannot leave the storage. */
export function assertSnapshotKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new SandboxError('invalid', `Invalid snapshot key ${JSON.stringify(key)}`);
  }
}

/** Snapshots as files under a directory, one subdirectory per namespace. */
export class LocalSnapshotStorage implements SnapshotStorage {
  /** @param directory Created on first write. Default {@link defaultSnapshotDirectory}. */
  constructor(readonly directory: string = defaultSnapshotDirectory()) {}

  async put(key: string, data: Uint8Array): Promise<void> {
    const file = this.file(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return undefined;
      throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const namespace = prefix.replace(/\/+$/, '');
    assertSnapshotKey(namespace);
    try {
      const names = await readdir(join(this.directory, namespace));
      return names.map((name) => `${namespace}/${name}`);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return [];
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  private file(key: string): string {
    assertSnapshotKey(key);
    return join(this.directory, ...key.split('/'));
  }
}
