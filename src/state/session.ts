/**
 * Sessions: a conversation that outlives one run and one process. A run
 * given a session loads the thread's recent messages (and the summary of
 * what came before them) as its history and appends what it added.
 * Stores: memory (here), the embedded and Postgres SQL stores, Redis.
 * @module
 */
import { TandemError } from '../core/errors.js';
import type { Message } from '../core/messages.js';

/** One stored message of a thread. */
export interface SessionItem {
  /** Position in the thread: 1, 2, 3, … with no gaps, assigned by the store on append. */
  seq: number;
  message: Message;
  /** The run that appended it, when known. */
  runId?: string;
  /** When the store appended it (ms since the epoch, from the run's clock). */
  createdAt: number;
}

/**
 * What the context compressor wrote about the start of a thread: it stands
 * in for every item up to `throughSeq`, so a long thread is never
 * re-summarised from scratch.
 */
export interface SessionSummary {
  text: string;
  /** The last item the summary covers. */
  throughSeq: number;
  createdAt: number;
}

/** What {@link Session.load} returns. */
export interface SessionSnapshot {
  /** The last items asked for, oldest first, all after `summary.throughSeq`. */
  items: SessionItem[];
  /** The newest summary, when one was saved. */
  summary?: SessionSummary;
  /** The seq of the thread's last item (0 for an empty thread). */
  lastSeq: number;
}

/** Options of {@link Session.append}. */
export interface SessionAppendOptions {
  /** Stamped on every appended item. */
  runId?: string;
  /** The time to stamp (the run's clock). Default `Date.now()`. */
  now?: number;
}

/**
 * One conversation thread. Every method is atomic across the processes that
 * share the store: an append lands whole or not at all, and two appends
 * never interleave their messages.
 */
export interface Session {
  /** The thread id. */
  readonly id: string;
  /** The user (or other owner) the thread belongs to, when known. */
  readonly resourceId?: string;
  /** The last `limit` items after the newest summary (default: all of them) and that summary. */
  load(options?: { limit?: number }): Promise<SessionSnapshot>;
  /** Appends `messages` as one contiguous batch; resolves the stored items. */
  append(messages: readonly Message[], options?: SessionAppendOptions): Promise<SessionItem[]>;
  /** Removes and returns the last item (`undefined` on an empty thread). */
  pop(): Promise<SessionItem | undefined>;
  /** Removes every item and summary of the thread. */
  clear(): Promise<void>;
  /** Stores a summary; a summary covering fewer items than the stored one is ignored. */
  saveSummary(summary: SessionSummary): Promise<void>;
}

/** Where threads live. One store can also keep run checkpoints and memory. */
export interface SessionStore {
  /** The thread `threadId` (created on first append). */
  session(threadId: string, options?: { resourceId?: string }): Session;
  /** Ids of the threads of `resourceId`, newest activity first. */
  threads?(resourceId: string): Promise<string[]>;
  /** Removes every thread of `resourceId`. */
  deleteResource?(resourceId: string): Promise<void>;
}

/** Why a session operation failed. */
export type SessionErrorKind =
  /** The store could not be reached or failed mid-operation; nothing was written. */
  | 'unavailable'
  /** A stored row could not be read (named in the message); other rows still are. */
  | 'corrupt'
  /** The database was written by a newer schema version than this package knows. */
  | 'unsupported_version'
  /** An id that is empty, too long or has control characters. */
  | 'invalid_id'
  /** Another writer changed the thread first and the operation could not be retried. */
  | 'conflict';

/** A session (or memory) store operation that failed; the message names the thread and row. */
export class SessionError extends TandemError<SessionErrorKind> {
  static override readonly brand: string = 'SessionError';
}

/** Longest thread or resource id a store accepts (the SQL stores' column width). */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * `id` checked as a thread or resource id: non-empty, at most
 * {@link MAX_SESSION_ID_LENGTH} characters, no control characters (ids end
 * up in keys, file names and logs).
 * @throws SessionError `invalid_id`.
 */
export function checkSessionId(id: unknown, what: 'thread' | 'resource'): string {
  const problem =
    typeof id !== 'string'
      ? `must be a string, got ${typeof id}`
      : id.length === 0
        ? 'is empty'
        : id.length > MAX_SESSION_ID_LENGTH
          ? `is ${id.length} characters long (at most ${MAX_SESSION_ID_LENGTH})`
          : // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
            /[\u0000-\u001f\u007f]/.test(id)
            ? 'has control characters'
            : undefined;
  if (problem) throw new SessionError('invalid_id', `The ${what} id ${JSON.stringify(id)} ${problem}`);
  return id as string;
}
