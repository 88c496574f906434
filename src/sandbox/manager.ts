/**
 * `SandboxManager`: one sandbox per (user, task), shared by all the code and
 * app work of that task, created on first use, disposed after an idle
 * period, and all disposed together on `dispose()` or abort.
 * @module
 */
import { errorMessage } from '../core/errors.js';
import type { ExecOptions, ExecResult, FileEntry, Sandbox } from '../core/sandbox.js';
import { type CancelTimer, type Clock, systemClock } from '../core/seams.js';
import { SandboxError } from './errors.js';

/** Default idle period before a sandbox is disposed: 30 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Which sandbox: the user and the task it belongs to. */
export interface SandboxKey {
  userId: string;
  taskId: string;
  /** `unified:<userId>:<taskId>`. */
  key: string;
}

/** Options of a {@link SandboxManager}. */
export interface SandboxManagerOptions {
  /** Creates the sandbox of a key, e.g. `(k) => BubblewrapSandbox.create({ snapshots: { namespace: k.key } })`. */
  create: (key: SandboxKey) => Promise<Sandbox>;
  /** A sandbox unused this long (no call running) is disposed. Default 30 min. */
  idleTimeoutMs?: number;
  /** Clock of the idle timers. Default the real one. */
  clock?: Clock;
  /** Aborting disposes every sandbox and refuses new ones. */
  signal?: AbortSignal;
  /** Snapshot a sandbox (when it supports snapshots) before it is disposed. Default false. */
  snapshotOnDispose?: boolean;
  /** Restore the newest snapshot (a sandbox with `restoreLatest`) right after creating one. Default false. */
  restoreOnCreate?: boolean;
  /** Told about failures no caller is waiting for (idle disposal, snapshot on dispose). */
  onError?: (error: unknown, key: SandboxKey) => void;
}

interface Entry {
  key: SandboxKey;
  ready: Promise<Sandbox>;
  handle: Sandbox;
  inflight: number;
  cancelIdle?: CancelTimer;
}

/**
 * Get-or-create sandboxes by (user, task). Concurrent `get`s of one key share
 * one creation. What `get` returns is a handle: calls on it keep the sandbox
 * alive, and its `dispose()` releases the sandbox for every holder.
 *
 * ```ts
 * const manager = new SandboxManager({ create: () => BubblewrapSandbox.create() });
 * const sandbox = await manager.get('user-1', 'task-9');
 * await sandbox.exec('python3 analyze.py');
 * await manager.dispose();
 * ```
 */
export class SandboxManager {
  private readonly entries = new Map<string, Entry>();
  /** Sandboxes being closed (snapshot, dispose); a new one for the key waits, so it restores the final state. */
  private readonly closingKeys = new Map<string, Promise<void>>();
  private readonly idleTimeoutMs: number;
  private readonly clock: Clock;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: SandboxManagerOptions) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    if (options.signal?.aborted) this.closing = Promise.resolve();
    else options.signal?.addEventListener('abort', () => void this.dispose(), { once: true });
  }

  /** The key string of a user and task. */
  static keyOf(userId: string, taskId: string): string {
    return `unified:${userId}:${taskId}`;
  }

  /**
   * The sandbox of (user, task), created on first use.
   * @throws SandboxError `disposed` after {@link dispose} or abort; whatever `create` throws (nothing is cached then).
   */
  async get(userId: string, taskId: string): Promise<Sandbox> {
    if (this.closing) throw new SandboxError('disposed', 'SandboxManager is disposed');
    const key = SandboxManager.keyOf(userId, taskId);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = this.open({ userId, taskId, key });
      this.entries.set(key, entry);
    }
    const current = entry;
    current.cancelIdle?.();
    current.cancelIdle = undefined;
    await current.ready;
    if (current.inflight === 0 && !current.cancelIdle) this.armIdle(current);
    return current.handle;
  }

  /** True while a sandbox exists (or is being created) for the key. */
  has(userId: string, taskId: string): boolean {
    return this.entries.has(SandboxManager.keyOf(userId, taskId));
  }

  /** Number of live sandboxes. */
  get size(): number {
    return this.entries.size;
  }

  /** Disposes the sandbox of (user, task), after a snapshot when configured. */
  async release(userId: string, taskId: string): Promise<void> {
    const entry = this.entries.get(SandboxManager.keyOf(userId, taskId));
    if (entry) await this.close(entry);
  }

  /** Disposes every sandbox; later `get`s fail with `disposed`. Idempotent. */
  dispose(): Promise<void> {
    this.closing ??= Promise.allSettled([
      ...[...this.entries.values()].map((e) => this.close(e)),
      ...this.closingKeys.values(),
    ]).then(() => {});
    return this.closing;
  }

  private open(key: SandboxKey): Entry {
    const ready = (async () => {
      await this.closingKeys.get(key.key);
      const sandbox = await this.options.create(key);
      try {
        const restorable = sandbox as Sandbox & { restoreLatest?: () => Promise<unknown> };
        if (this.options.restoreOnCreate && restorable.restoreLatest) await restorable.restoreLatest();
      } catch (error) {
        await sandbox.dispose();
        throw error;
      }
      if (this.closing) {
        await sandbox.dispose();
        throw new SandboxError('disposed', 'SandboxManager is disposed');
      }
      return sandbox;
    })();
    const entry: Entry = { key, ready, handle: undefined as unknown as Sandbox, inflight: 0 };
    entry.handle = this.handleFor(entry);
    ready.catch(() => {
      if (this.entries.get(key.key) === entry) this.entries.delete(key.key);
    });
    return entry;
  }

  private close(entry: Entry): Promise<void> {
    const key = entry.key.key;
    if (this.entries.get(key) !== entry) return this.closingKeys.get(key) ?? Promise.resolve();
    this.entries.delete(key);
    entry.cancelIdle?.();
    const closing = (async () => {
      const sandbox = await entry.ready.catch(() => undefined);
      if (!sandbox) return;
      if (this.options.snapshotOnDispose && sandbox.snapshot) {
        await sandbox.snapshot().catch((error: unknown) => this.report(error, entry.key));
      }
      await sandbox.dispose();
    })();
    const settled = closing.catch(() => {});
    this.closingKeys.set(key, settled);
    void settled.then(() => {
      if (this.closingKeys.get(key) === settled) this.closingKeys.delete(key);
    });
    return closing;
  }

  private armIdle(entry: Entry): void {
    entry.cancelIdle = this.clock.setTimer(this.idleTimeoutMs, () => {
      entry.cancelIdle = undefined;
      this.close(entry).catch((error: unknown) => this.report(error, entry.key));
    });
  }

  private report(error: unknown, key: SandboxKey): void {
    if (this.options.onError) this.options.onError(error, key);
    else console.warn(`tandem: sandbox ${key.key}: ${errorMessage(error)}`);
  }

  /** A handle whose calls keep the sandbox alive (no idle disposal while one runs). */
  private handleFor(entry: Entry): Sandbox {
    const use = async <T>(fn: (sandbox: Sandbox) => Promise<T>): Promise<T> => {
      if (this.entries.get(entry.key.key) !== entry) {
        throw new SandboxError('disposed', `Sandbox ${entry.key.key} was released`);
      }
      const sandbox = await entry.ready;
      entry.cancelIdle?.();
      entry.cancelIdle = undefined;
      entry.inflight++;
      try {
        return await fn(sandbox);
      } finally {
        entry.inflight--;
        if (entry.inflight === 0 && this.entries.get(entry.key.key) === entry) this.armIdle(entry);
      }
    };
    return {
      get id() {
        return entry.key.key;
      },
      exec: (command: string, options?: ExecOptions): Promise<ExecResult> =>
        use((s) => s.exec(command, options)),
      writeFile: (path: string, content: string | Uint8Array) => use((s) => s.writeFile(path, content)),
      readFile: (path: string) => use((s) => s.readFile(path)),
      readBytes: (path: string) =>
        use((s) => {
          const reader = s as Sandbox & { readBytes?: (p: string) => Promise<Uint8Array> };
          return reader.readBytes ? reader.readBytes(path) : s.readFile(path).then((t) => Buffer.from(t));
        }),
      listFiles: (path?: string, options?: { recursive?: boolean }): Promise<FileEntry[]> =>
        use((s) => s.listFiles(path, options)),
      snapshot: () => use((s) => (s.snapshot ? s.snapshot() : Promise.reject(noSnapshots(entry)))),
      restore: (id: string) => use((s) => (s.restore ? s.restore(id) : Promise.reject(noSnapshots(entry)))),
      dispose: () => this.close(entry),
    } as Sandbox;
  }
}

function noSnapshots(entry: Entry): SandboxError {
  return new SandboxError('unavailable', `Sandbox ${entry.key.key} does not support snapshots`);
}
