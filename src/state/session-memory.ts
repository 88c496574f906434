/**
 * The in-memory session store: threads in a Map, for tests, demos and
 * single-process apps that need no persistence. Every operation runs in one
 * synchronous step, so it is atomic against every other caller of the store.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import {
  checkSessionId,
  type Session,
  type SessionAppendOptions,
  SessionError,
  type SessionItem,
  type SessionSnapshot,
  type SessionStore,
  type SessionSummary,
} from './session.js';

interface Thread {
  resourceId?: string;
  items: SessionItem[];
  summary?: SessionSummary;
  /** Bumped on every write: orders `threads()` by newest activity. */
  touched: number;
}

/**
 * Sessions kept in memory, gone with the process.
 *
 * ```ts
 * const sessions = new InMemorySessionStore();
 * const session = sessions.session('thread-1', { resourceId: 'user-42' });
 * await executor.run('Hello', { session }).result;
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  private readonly threadsById = new Map<string, Thread>();
  private activity = 0;

  /** @throws SessionError `invalid_id` for an empty, too long or control-character id. */
  session(threadId: string, options: { resourceId?: string } = {}): Session {
    const id = checkSessionId(threadId, 'thread');
    const resourceId =
      options.resourceId === undefined ? undefined : checkSessionId(options.resourceId, 'resource');
    return new MemorySession(id, resourceId, {
      find: () => this.threadsById.get(id),
      create: () => {
        let thread = this.threadsById.get(id);
        if (!thread) {
          thread = { items: [], touched: 0 };
          this.threadsById.set(id, thread);
        }
        thread.resourceId ??= resourceId;
        thread.touched = ++this.activity;
        return thread;
      },
      drop: () => this.threadsById.delete(id),
    });
  }

  async threads(resourceId: string): Promise<string[]> {
    checkSessionId(resourceId, 'resource');
    return [...this.threadsById]
      .filter(([, thread]) => thread.resourceId === resourceId)
      .sort(([, a], [, b]) => b.touched - a.touched)
      .map(([id]) => id);
  }

  async deleteResource(resourceId: string): Promise<void> {
    checkSessionId(resourceId, 'resource');
    for (const [id, thread] of this.threadsById) {
      if (thread.resourceId === resourceId) this.threadsById.delete(id);
    }
  }
}

/** How a session reaches its thread in the store. */
interface ThreadAccess {
  find(): Thread | undefined;
  /** The thread, created if missing, marked as active now. */
  create(): Thread;
  drop(): void;
}

class MemorySession implements Session {
  constructor(
    readonly id: string,
    readonly resourceId: string | undefined,
    private readonly access: ThreadAccess,
  ) {}

  async load(options: { limit?: number } = {}): Promise<SessionSnapshot> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (!(limit >= 0)) throw new ConfigError(`Session ${this.id}: load's limit must be ≥ 0, got ${limit}`);
    const thread = this.access.find();
    if (!thread) return { items: [], lastSeq: 0 };
    const { items, summary } = thread;
    const after = summary ? firstAfter(items, summary.throughSeq) : 0;
    const start = Math.max(after, items.length - limit);
    const snapshot: SessionSnapshot = {
      items: items.slice(start).map(copyItem),
      lastSeq: items.at(-1)?.seq ?? 0,
    };
    if (summary) snapshot.summary = { ...summary };
    return snapshot;
  }

  async append(messages: readonly Message[], options: SessionAppendOptions = {}): Promise<SessionItem[]> {
    // Copied before the thread is touched: a message that cannot be cloned leaves the thread as it was.
    const copies = messages.map((message) => structuredClone(message));
    if (copies.length === 0) return [];
    const thread = this.access.create();
    const createdAt = options.now ?? Date.now();
    let seq = thread.items.at(-1)?.seq ?? 0;
    const added = copies.map((message): SessionItem => {
      const item: SessionItem = { seq: ++seq, message, createdAt };
      if (options.runId !== undefined) item.runId = options.runId;
      return item;
    });
    thread.items.push(...added);
    return added.map(copyItem);
  }

  async pop(): Promise<SessionItem | undefined> {
    const thread = this.access.find();
    const item = thread?.items.pop();
    if (!thread || !item) return undefined;
    // A summary that covers the removed item would stand in for a message that is gone.
    if (thread.summary && thread.summary.throughSeq >= item.seq) delete thread.summary;
    return item;
  }

  async clear(): Promise<void> {
    this.access.drop();
  }

  async saveSummary(summary: SessionSummary): Promise<void> {
    const thread = this.access.find();
    const lastSeq = thread?.items.at(-1)?.seq ?? 0;
    if (!thread || summary.throughSeq > lastSeq || summary.throughSeq < 1) {
      throw new SessionError(
        'conflict',
        `Session ${this.id}: a summary through item ${summary.throughSeq} does not fit a thread of ${lastSeq} items`,
      );
    }
    if (thread.summary && thread.summary.throughSeq > summary.throughSeq) return;
    thread.summary = { text: summary.text, throughSeq: summary.throughSeq, createdAt: summary.createdAt };
  }
}

/** Index of the first item after `seq` (items are in seq order). */
function firstAfter(items: readonly SessionItem[], seq: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (items[mid]!.seq <= seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

function copyItem(item: SessionItem): SessionItem {
  return { ...item, message: structuredClone(item.message) };
}
