/**
 * Resumable UI message streams: the runs a route serves, each with its events
 * in the viewer's bounded replay buffer (`RunLog`), so a client that
 * reconnects mid-run (`Last-Event-ID`, or `useChat`'s `resume`) gets the rest
 * of the stream — no gap, no duplicate — and a paused run's state waits for
 * the request that answers its approvals.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { PausedState } from '../state/paused-state.js';
import { RunLog } from '../viewer/server/run-log.js';
import type { UIStreamOptions } from './convert.js';
import { indexedChunks, sseResponse } from './stream.js';

/** A run the registry can follow: a `Run` or an `OrchestratorRun`. */
export interface UITrackableRun {
  readonly runId: string;
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
  readonly result: Promise<{ status: string; state?: PausedState }>;
}

/** Options of {@link createUIStreamRegistry}. */
export interface UIStreamRegistryOptions {
  /** Runs kept; past it the oldest ended run is forgotten (a running one never is). Default 100. */
  maxRuns?: number;
  /**
   * Events kept per run. Default 100 000. Past it the buffer drops the oldest
   * text deltas, as the viewer's, and a client reconnecting after that point
   * no longer gets an exact continuation; keep it above your longest run.
   */
  maxEvents?: number;
}

/** Options of {@link UIStreamRegistry.track}: the chat the run answers, and the stream's options. */
export interface UITrackOptions extends UIStreamOptions {
  chatId?: string;
}

/** Options of {@link UIStreamRegistry.response}. */
export interface UIResumeOptions {
  /** The reconnecting request: its `Last-Event-ID` header is the last chunk the client has. */
  request?: Request;
  /** The last chunk index the client has (over `Last-Event-ID` when larger). */
  after?: number;
}

/** The runs a UI route serves. */
export interface UIStreamRegistry {
  /** Follows `run` from now on (call it right after `run()`); returns the run's id. */
  track(run: UITrackableRun, options?: UITrackOptions): string;
  /** Tracks `run` and answers with its whole stream: what a chat route's `POST` returns. */
  serve(run: UITrackableRun, options?: UITrackOptions): Response;
  /**
   * The run's stream (by run id, or the chat's latest run) from the chunk
   * after the client's last one. Without a `Last-Event-ID` or `after`, a run
   * that has ended answers `204 No Content`, as `useChat`'s `resume` expects;
   * an unknown id answers 204 too.
   */
  response(id: string, options?: UIResumeOptions): Response;
  /** Takes the paused state of the chat's latest run, once it ended `interrupted` (to answer and resume). */
  takePaused(chatId: string): PausedState | undefined;
  /** True while the run (by run id, or the chat's latest run) is still running. */
  isActive(id: string): boolean;
}

interface Entry {
  runId: string;
  chatId?: string;
  log: RunLog;
  options: UIStreamOptions;
  paused?: PausedState;
}

/** A registry of resumable UI message streams. */
export function createUIStreamRegistry(options: UIStreamRegistryOptions = {}): UIStreamRegistry {
  const maxRuns = options.maxRuns ?? 100;
  const maxEvents = options.maxEvents ?? 100_000;
  const entries = new Map<string, Entry>();

  const find = (id: string): Entry | undefined =>
    entries.get(id) ?? [...entries.values()].reverse().find((e) => e.chatId === id);

  const evict = () => {
    for (const entry of entries.values()) {
      if (entries.size <= maxRuns) return;
      if (entry.log.ended) entries.delete(entry.runId);
    }
  };

  const registry: UIStreamRegistry = {
    track(run, { chatId, ...streamOptions } = {}) {
      const entry: Entry = { runId: run.runId, chatId, log: new RunLog(maxEvents), options: streamOptions };
      const listener = (event: TandemEvent) => {
        entry.log.push(event);
        if (entry.log.ended) run.off('*', listener);
      };
      run.on('*', listener);
      // The result settles after the terminal event; a run that ends without one still closes its log.
      void run.result.then(
        (result) => {
          if (result.status === 'interrupted' && result.state) entry.paused = result.state;
          entry.log.close();
        },
        () => entry.log.close(),
      );
      entries.delete(run.runId);
      entries.set(run.runId, entry);
      evict();
      return run.runId;
    },
    serve(run, options) {
      return registry.response(registry.track(run, options), { after: 0 });
    },
    response(id, { request, after } = {}) {
      const entry = find(id);
      const last = Math.max(indexOf(request?.headers.get('last-event-id') ?? null), after ?? 0);
      const resuming = request?.headers.has('last-event-id') || after !== undefined;
      if (!entry || (entry.log.ended && !resuming)) return new Response(null, { status: 204 });
      return sseResponse(indexedChunks(entry.log.after(0), { ...entry.options, after: last }));
    },
    takePaused(chatId) {
      const entry = find(chatId);
      const state = entry?.paused;
      if (entry) entry.paused = undefined;
      return state;
    },
    isActive(id) {
      const entry = find(id);
      return entry !== undefined && !entry.log.ended;
    },
  };
  return registry;
}

/** A non-negative chunk index, or 0 for anything else. */
function indexOf(value: string | null): number {
  const n = Number(value);
  return value !== null && Number.isSafeInteger(n) && n > 0 ? n : 0;
}
