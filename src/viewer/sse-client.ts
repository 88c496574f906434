/**
 * The browser side of a run's SSE stream, on the platform's `EventSource`:
 * after a dropped connection it reconnects by itself and sends
 * `Last-Event-ID`, so the server resumes after the last event received. Every
 * frame is counted, so a page (and a test) can tell that each event arrived
 * exactly once: a repeated `seq` is a duplicate (dropped here), a skipped one
 * a gap (events the server no longer held).
 * @module
 */
import { isTerminalEvent, type TandemEvent } from '../core/events.js';
import { EVENT_TYPES } from '../state/sse.js';

/** What arrived on a stream. */
export interface StreamStats {
  /** Event frames received, duplicates included. */
  frames: number;
  /** Frames whose `seq` had already arrived. */
  duplicates: number;
  /** Events skipped between two frames (or before the first): not held by the server any more. */
  gaps: number;
  /** Connections lost and retried. */
  reconnects: number;
  /** `seq` of the last event applied. */
  lastSeq: number;
}

/** The state of the connection. */
export type StreamStatus = 'connecting' | 'open' | 'reconnecting' | 'ended' | 'closed';

/** Callbacks of {@link openEventStream}. */
export interface StreamHandlers {
  onEvent(event: TandemEvent): void;
  onStatus(status: StreamStatus): void;
}

/** Fresh counters. */
export function emptyStats(): StreamStats {
  return { frames: 0, duplicates: 0, gaps: 0, reconnects: 0, lastSeq: 0 };
}

/**
 * Opens `url` and feeds each new event to `handlers.onEvent`, updating
 * `stats`. Resumes after `stats.lastSeq` (as `?after=`) when it is set, closes
 * itself after the terminal event. Returns the function that closes it.
 */
export function openEventStream(url: string, handlers: StreamHandlers, stats: StreamStats): () => void {
  const target = new URL(url, document.baseURI);
  if (stats.lastSeq > 0) target.searchParams.set('after', String(stats.lastSeq));
  const source = new EventSource(target.href);
  const close = () => {
    source.close();
    for (const type of EVENT_TYPES) source.removeEventListener(type, onFrame);
  };
  const onFrame = (message: Event) => {
    // A run's `error` frames share their name with the connection's own `error` events, which carry no data.
    const data = (message as MessageEvent<unknown>).data;
    if (typeof data !== 'string') return;
    const event = JSON.parse(data) as TandemEvent;
    stats.frames++;
    if (event.seq <= stats.lastSeq) {
      stats.duplicates++;
      return;
    }
    stats.gaps += event.seq - stats.lastSeq - 1;
    stats.lastSeq = event.seq;
    handlers.onEvent(event);
    if (isTerminalEvent(event)) {
      close();
      handlers.onStatus('ended');
    }
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onFrame);
  source.onopen = () => handlers.onStatus('open');
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      handlers.onStatus('closed');
      return;
    }
    stats.reconnects++;
    handlers.onStatus('reconnecting');
  };
  handlers.onStatus('connecting');
  return close;
}
