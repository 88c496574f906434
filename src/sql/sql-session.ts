/**
 * A thread in the SQL stores. Each method is one transaction; an append
 * takes the thread row's lock (the upsert that bumps `last_seq`), so
 * concurrent appenders in any number of processes get contiguous, gap-free
 * seqs and never interleave.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import { base64Replacer } from '../core/media.js';
import type { Message } from '../core/messages.js';
import {
  type Session,
  type SessionAppendOptions,
  SessionError,
  type SessionItem,
  type SessionSnapshot,
  type SessionSummary,
} from '../state/session.js';
import { type SqlClient, type SqlQueryable, sessionOp } from './client.js';

interface MessageRow {
  seq: number | string;
  message: string;
  run_id: string | null;
  created_at: number;
}

/** A {@link Session} on a {@link SqlClient}. Made by `SqlStore.session`. */
export class SqlSession implements Session {
  constructor(
    private readonly client: SqlClient,
    readonly id: string,
    readonly resourceId?: string,
  ) {}

  /**
   * The last items and the summary, read under a share lock on the thread
   * row so no append lands between the reads.
   * @throws SessionError `corrupt` when an item in the window is not a stored
   *   message (naming the thread and seq); a window that leaves it out loads.
   */
  async load(options: { limit?: number } = {}): Promise<SessionSnapshot> {
    const limit = options.limit;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
      throw new ConfigError(`Session ${this.id}: limit must be a non-negative integer, got ${limit}`);
    }
    return sessionOp(this.client, `load thread ${this.id}`, () =>
      this.client.transaction(async (tx) => {
        const thread = await tx.query<{ last_seq: number | string }>(
          'SELECT last_seq FROM tandem_threads WHERE thread_id = $1 FOR SHARE',
          [this.id],
        );
        if (thread.rows.length === 0) return { items: [], lastSeq: 0 };
        const summary = await this.summaryIn(tx);
        const { rows } = await tx.query<MessageRow>(
          `SELECT seq, message, run_id, created_at FROM tandem_messages
           WHERE thread_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3`,
          [this.id, summary?.throughSeq ?? 0, limit ?? null],
        );
        const items = rows.reverse().map((row) => this.itemOf(row));
        const lastSeq = Number(thread.rows[0]!.last_seq);
        return summary ? { items, summary, lastSeq } : { items, lastSeq };
      }),
    );
  }

  append(messages: readonly Message[], options: SessionAppendOptions = {}): Promise<SessionItem[]> {
    if (messages.length === 0) return Promise.resolve([]);
    const now = options.now ?? Date.now();
    const texts = messages.map((message) => JSON.stringify(message, base64Replacer));
    return sessionOp(this.client, `append ${messages.length} message(s) to thread ${this.id}`, () =>
      this.client.transaction(async (tx) => {
        const last = await this.bumpThread(tx, messages.length, now);
        const first = last - messages.length + 1;
        await tx.query(
          `INSERT INTO tandem_messages (thread_id, seq, message, run_id, created_at)
           SELECT $1, $2::bigint + t.o - 1, t.m, $4, $5 FROM unnest($3::text[]) WITH ORDINALITY AS t(m, o)`,
          [this.id, first, texts, options.runId ?? null, now],
        );
        return texts.map((text, i) => {
          const item: SessionItem = { seq: first + i, message: JSON.parse(text) as Message, createdAt: now };
          if (options.runId !== undefined) item.runId = options.runId;
          return item;
        });
      }),
    );
  }

  /** Removes the last item; a summary that covered it goes too, since its seq will be reused. */
  pop(): Promise<SessionItem | undefined> {
    return sessionOp(this.client, `pop the last item of thread ${this.id}`, () =>
      this.client.transaction(async (tx) => {
        const thread = await tx.query<{ last_seq: number | string }>(
          'SELECT last_seq FROM tandem_threads WHERE thread_id = $1 FOR UPDATE',
          [this.id],
        );
        const last = Number(thread.rows[0]?.last_seq ?? 0);
        if (last === 0) return undefined;
        const { rows } = await tx.query<MessageRow>(
          `DELETE FROM tandem_messages WHERE thread_id = $1 AND seq = $2
           RETURNING seq, message, run_id, created_at`,
          [this.id, last],
        );
        await tx.query('UPDATE tandem_threads SET last_seq = $2 WHERE thread_id = $1', [this.id, last - 1]);
        await tx.query('DELETE FROM tandem_summaries WHERE thread_id = $1 AND through_seq >= $2', [
          this.id,
          last,
        ]);
        return rows[0] && this.itemOf(rows[0]);
      }),
    );
  }

  /** Deletes the thread row; its items and summary go with it (foreign keys cascade). */
  clear(): Promise<void> {
    return sessionOp(this.client, `clear thread ${this.id}`, async () => {
      await this.client.query('DELETE FROM tandem_threads WHERE thread_id = $1', [this.id]);
    });
  }

  /** @throws SessionError `conflict` when `throughSeq` is not an item of the thread (below 1 or past its last). */
  saveSummary(summary: SessionSummary): Promise<void> {
    return sessionOp(this.client, `save the summary of thread ${this.id}`, () =>
      this.client.transaction(async (tx) => {
        const last = await this.bumpThread(tx, 0, summary.createdAt);
        if (!(summary.throughSeq >= 1 && summary.throughSeq <= last)) {
          throw new SessionError(
            'conflict',
            `Session ${this.id}: a summary through item ${summary.throughSeq} does not fit a thread of ${last} item(s)`,
          );
        }
        await tx.query(
          `INSERT INTO tandem_summaries (thread_id, text, through_seq, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (thread_id) DO UPDATE SET text = EXCLUDED.text, through_seq = EXCLUDED.through_seq,
             created_at = EXCLUDED.created_at
           WHERE tandem_summaries.through_seq <= EXCLUDED.through_seq`,
          [this.id, summary.text, summary.throughSeq, summary.createdAt],
        );
      }),
    );
  }

  /** Creates the thread row or adds `count` to its `last_seq`, holding its lock until commit; resolves the new `last_seq`. */
  private async bumpThread(tx: SqlQueryable, count: number, now: number): Promise<number> {
    const { rows } = await tx.query<{ last_seq: number | string }>(
      `INSERT INTO tandem_threads (thread_id, resource_id, last_seq, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (thread_id) DO UPDATE SET last_seq = tandem_threads.last_seq + EXCLUDED.last_seq,
         updated_at = GREATEST(tandem_threads.updated_at, EXCLUDED.updated_at),
         resource_id = COALESCE(tandem_threads.resource_id, EXCLUDED.resource_id)
       RETURNING last_seq`,
      [this.id, this.resourceId ?? null, count, now],
    );
    return Number(rows[0]!.last_seq);
  }

  private async summaryIn(tx: SqlQueryable): Promise<SessionSummary | undefined> {
    const { rows } = await tx.query<{ text: string; through_seq: number | string; created_at: number }>(
      'SELECT text, through_seq, created_at FROM tandem_summaries WHERE thread_id = $1',
      [this.id],
    );
    const row = rows[0];
    return row && { text: row.text, throughSeq: Number(row.through_seq), createdAt: Number(row.created_at) };
  }

  private itemOf(row: MessageRow): SessionItem {
    const seq = Number(row.seq);
    const item: SessionItem = {
      seq,
      message: parseMessage(row.message, this.id, seq),
      createdAt: Number(row.created_at),
    };
    if (row.run_id !== null) item.runId = row.run_id;
    return item;
  }
}

function parseMessage(text: string, threadId: string, seq: number): Message {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    throw new SessionError('corrupt', `Session ${threadId}: item ${seq} is not valid JSON`, { cause: error });
  }
  if (
    typeof message !== 'object' ||
    message === null ||
    typeof (message as { role?: unknown }).role !== 'string'
  ) {
    throw new SessionError('corrupt', `Session ${threadId}: item ${seq} is not a message (no role)`);
  }
  return message as Message;
}
