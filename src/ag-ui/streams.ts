/**
 * Resumable AG-UI streams: each run's tandem events in the viewer's bounded
 * replay buffer (`RunLog`), converted afresh for every connection — the
 * conversion is deterministic, so event `n` is the same on every connection
 * and a client reconnecting with `Last-Event-ID: n` gets `n + 1` on.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import { RunLog } from '../viewer/server/run-log.js';
import { AgUiConverter, type AgUiConvertOptions } from './convert.js';
import type { AgUiEvent } from './events.js';

/** The SSE headers of an AG-UI stream. */
export const AG_UI_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

interface Trackable {
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
  readonly result: Promise<unknown>;
}

interface Entry {
  log: RunLog;
  /** A fresh converter per connection, same options: the same events give the same numbered AG-UI events. */
  converter: () => AgUiConverter;
}

const encoder = new TextEncoder();

/** The runs an AG-UI endpoint streams, by AG-UI run id; the last `maxRuns` kept. */
export class AgUiStreams {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limits: { maxRuns: number; maxEvents: number }) {}

  /** Follows `run` from now on under `key`. */
  track(run: Trackable, options: { key: string; convert: AgUiConvertOptions }): void {
    const log = new RunLog(this.limits.maxEvents);
    const listener = (event: TandemEvent) => {
      log.push(event);
      if (log.ended) run.off('*', listener);
    };
    run.on('*', listener);
    // The result settles after the terminal event; a run that ends without one still closes its log.
    void run.result.then(
      () => log.close(),
      () => log.close(),
    );
    this.entries.delete(options.key);
    this.entries.set(options.key, { log, converter: () => new AgUiConverter(options.convert) });
    this.evict();
  }

  /** The run's stream after event `after` (or `Last-Event-ID`); 204 for an unknown run or an ended one without either. */
  response(key: string, from: { after?: number; lastEventId?: string | null }): Response {
    const entry = this.entries.get(key);
    const resuming = from.after !== undefined || (from.lastEventId ?? null) !== null;
    if (!entry || (entry.log.ended && !resuming)) return new Response(null, { status: 204 });
    const after = Math.max(from.after ?? 0, indexOf(from.lastEventId ?? null));
    return sse(numbered(entry.log.after(0), entry.converter(), after));
  }

  isActive(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && !entry.log.ended;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxRuns) return;
      if (entry.log.ended) this.entries.delete(key);
    }
  }
}

/** The AG-UI events of `events` after the first `after`, numbered from 1. */
async function* numbered(
  events: AsyncIterableIterator<TandemEvent>,
  converter: AgUiConverter,
  after: number,
): AsyncGenerator<{ index: number; event: AgUiEvent }, void, undefined> {
  let index = 0;
  try {
    for await (const event of events) {
      for (const out of converter.push(event)) {
        index += 1;
        if (index > after) yield { index, event: out };
      }
    }
  } finally {
    await events.return?.();
  }
}

/**
 * Frames numbered events as SSE (`id: <index>`, `data: <json>`): the JSON
 * escapes every line break, so model text and tool output cannot end a frame
 * or start another — they cross as data.
 */
function sse(events: AsyncGenerator<{ index: number; event: AgUiEvent }>): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await events.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(`id: ${value.index}\ndata: ${JSON.stringify(value.event)}\n\n`));
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(body, { headers: { ...AG_UI_HEADERS } });
}

/** A positive event index, or 0 for anything else. */
function indexOf(value: string | null): number {
  const n = Number(value);
  return value !== null && Number.isSafeInteger(n) && n > 0 ? n : 0;
}
