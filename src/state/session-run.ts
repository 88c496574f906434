/**
 * How a run uses a session: the history it starts from (the thread's last
 * items after the stored summary, that summary presented the way the context
 * compressor presents its own), and the writer that appends what the run
 * adds, whole turns only, each message exactly once, and saves the
 * compressor's summaries so a long thread is never summarised from scratch.
 * @module
 */

import { placeBetween } from '../context/summary-placement.js';
import { formatSummary, serializeMessage, summaryBodyOf } from '../context/summary-prompt.js';
import { groupStartAtOrAfter } from '../context/tool-pairs.js';
import { errorMessage } from '../core/errors.js';
import type { Emitter } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Clock } from '../core/seams.js';
import { type Session, SessionError } from './session.js';

/**
 * Items of the thread a run loads by default: the seeds' conversation log
 * keeps the last 50 messages (seed 001 §83; the last 10 of them go to its
 * prompt, which the context compressor's protected tail plays here).
 */
export const DEFAULT_SESSION_HISTORY = 50;

/** What a run reports about its session. */
export interface SessionReport {
  /** The thread's id. */
  threadId: string;
  /** Messages this run appended. */
  appended: number;
  /** The first append or summary save that failed; what it held is appended by the next one that succeeds. */
  error?: SessionError;
}

/** The history a run starts from, and where each of its messages sits in the thread. */
export interface SessionHistory {
  messages: Message[];
  /** The seq of each loaded message (a summary merged into one counts as that item). */
  seqs: Map<Message, number>;
  /** The stored summary's text, when the thread has one. */
  summary?: string;
}

/**
 * Loads the last `limit` items after the thread's summary as messages, the
 * summary in front (its own message, or merged into the first one to keep
 * user/assistant alternation). A window starting with tool results whose
 * call is outside it starts after them.
 * @throws SessionError when the store fails (`unavailable`, `corrupt`, …).
 */
export async function loadSessionHistory(session: Session, limit: number): Promise<SessionHistory> {
  let snapshot: Awaited<ReturnType<Session['load']>>;
  try {
    snapshot = await session.load({ limit });
  } catch (error) {
    throw asSessionError(error, `Could not load session ${session.id}`);
  }
  const items = snapshot.items;
  const start = groupStartAtOrAfter(
    items.map((item) => item.message),
    0,
  );
  const window = items.slice(start);
  const tail = window.map((item) => item.message);
  const summary = snapshot.summary?.text;
  const messages =
    summary === undefined ? tail : placeBetween({ head: [], tail }, formatSummary(summary), true);
  const seqs = new Map<Message, number>();
  // The summary's own message stands for nothing appended; a merged one stands for its item.
  const offset = messages.length - tail.length;
  for (const [i, item] of window.entries()) seqs.set(messages[i + offset] ?? item.message, item.seq);
  const history: SessionHistory = { messages, seqs };
  if (summary !== undefined) history.summary = summary;
  return history;
}

/** What a {@link SessionWriter} needs of its run. */
export interface SessionWriterOptions {
  session: Session;
  /** Seqs of the messages loaded from the thread (from {@link loadSessionHistory}). */
  seqs?: Map<Message, number>;
  /** The stored summary's text: a compression that keeps it is not saved again. */
  summary?: string;
  /** Index, in the run's conversation, of the first message the run appends. */
  from: number;
  runId: string;
  clock: Clock;
  /** Where the `session` stage events of a failed append go. */
  emit?: Emitter;
}

/**
 * Appends a run's messages to its session. Each call appends the whole turns
 * added since the last append that succeeded, as one batch: a model turn
 * with tool calls goes in with all its results, the input with the first
 * reply, so the thread never holds a call without its result. Calls are
 * queued, so each message is appended exactly once. Never rejects: a failed
 * append is reported (a `session` stage event, {@link SessionReport.error})
 * and its messages go with the next append.
 */
export class SessionWriter {
  private appended: number;
  private count = 0;
  private error: SessionError | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly seqs: Map<Message, number>;
  private savedSummary: string | undefined;
  private pendingSummary: { text: string; through: Message } | undefined;

  constructor(private readonly o: SessionWriterOptions) {
    this.appended = o.from;
    this.seqs = o.seqs ?? new Map();
    this.savedSummary = o.summary;
  }

  /** Index of the first message of the run's conversation not appended yet. */
  get appendedUpTo(): number {
    return this.appended;
  }

  /** Appends the whole turns of `messages` not appended yet. */
  write(messages: readonly Message[]): Promise<void> {
    const next = this.queue.then(() => this.flush(messages));
    this.queue = next;
    return next;
  }

  /**
   * Notes a compression of the run's conversation: `sent` replaced `source`
   * in a request. When it holds a new summary, that summary is saved
   * through the last message it covers (once that message is appended).
   */
  compressed(source: readonly Message[], sent: readonly Message[]): Promise<void> {
    const found = summaryIn(sent);
    if (!found || found.text === this.savedSummary) return this.queue;
    const tailLength = sent.length - found.index - (found.standalone ? 1 : 0);
    const through = source[source.length - tailLength - 1];
    if (!through) return this.queue;
    this.savedSummary = found.text;
    this.pendingSummary = { text: withHead(sent.slice(0, found.index), found.text), through };
    const next = this.queue.then(() => this.saveSummary());
    this.queue = next;
    return next;
  }

  /** What the run appended, once every queued append has settled. */
  async report(): Promise<SessionReport> {
    await this.queue;
    const report: SessionReport = { threadId: this.o.session.id, appended: this.count };
    if (this.error) report.error = this.error;
    return report;
  }

  private async flush(messages: readonly Message[]): Promise<void> {
    const end = wholeTurnsEnd(messages, this.appended);
    if (end <= this.appended) return;
    const batch = messages.slice(this.appended, end);
    try {
      const items = await this.o.session.append(batch, { runId: this.o.runId, now: this.o.clock.now() });
      for (const [i, item] of items.entries()) this.seqs.set(batch[i]!, item.seq);
      this.appended = end;
      this.count += batch.length;
    } catch (error) {
      this.failed(error, `Could not append ${batch.length} messages to session ${this.o.session.id}`);
      return;
    }
    await this.saveSummary();
  }

  private async saveSummary(): Promise<void> {
    const pending = this.pendingSummary;
    const throughSeq = pending && this.seqs.get(pending.through);
    if (!pending || throughSeq === undefined) return;
    this.pendingSummary = undefined;
    try {
      await this.o.session.saveSummary({ text: pending.text, throughSeq, createdAt: this.o.clock.now() });
    } catch (error) {
      this.failed(error, `Could not save the summary of session ${this.o.session.id}`);
    }
  }

  private failed(error: unknown, context: string): void {
    const typed = asSessionError(error, context);
    this.error ??= typed;
    this.o.emit?.emit('stage', { name: 'session', status: 'running' });
    this.o.emit?.emit('stage', { name: 'session', status: 'failed', detail: typed.message });
  }
}

/**
 * End (exclusive) of the longest run of whole turns in `messages` from
 * `from`: it includes an assistant message, leaves no tool call without its
 * result, and is not followed by results of its last call.
 */
export function wholeTurnsEnd(messages: readonly Message[], from: number): number {
  const open = new Set<string>();
  let replied = false;
  let end = from;
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      replied = true;
      for (const part of message.content) if (part.type === 'tool_call') open.add(part.id);
    } else if (message.role === 'tool') {
      for (const part of message.content) open.delete(part.toolCallId);
    }
    if (replied && open.size === 0 && messages[i + 1]?.role !== 'tool') end = i + 1;
  }
  return end;
}

/**
 * The text saved for a summary the compressor wrote after a protected head:
 * the head's messages (as the summariser reads messages) before it. The
 * summary stands for every item up to its last one, so what the head said
 * must be in it, or the thread's later runs would never see it; the next
 * compression folds it in with the rest.
 */
function withHead(head: readonly Message[], body: string): string {
  const turns = head.map(serializeMessage).filter(Boolean);
  return turns.length ? `Start of the conversation:\n${turns.join('\n')}\n\n${body}` : body;
}

/** The newest summary in a compressed conversation: its text, index, and whether it is a message of its own. */
function summaryIn(messages: readonly Message[]) {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    const text = summaryBodyOf(message);
    if (text === undefined) continue;
    const own = message.role === 'user' ? message.content : message.role === 'assistant' && message.content;
    const formatted = formatSummary(text);
    const standalone =
      own === formatted ||
      (Array.isArray(own) && own.length === 1 && (own[0] as { text?: string }).text === formatted);
    return { text, index, standalone };
  }
  return undefined;
}

/** `error` as the session error a run reports: a store's own, else `unavailable` naming the cause. */
export function asSessionError(error: unknown, context: string): SessionError {
  if (error instanceof SessionError) return error;
  return new SessionError('unavailable', `${context}: ${errorMessage(error)}`, { cause: error });
}
