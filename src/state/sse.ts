/**
 * Server-Sent Events for a run: `toSSE` turns events into a Web
 * `ReadableStream` of SSE frames (Node ≥ 18, Deno, Bun, edge runtimes),
 * `sseResponse` wraps it in a `Response`.
 *
 * Each event is one frame, `id: <seq>\nevent: <type>\ndata: <json>\n\n`. The
 * data is the whole event as one line of JSON — JSON escapes every CR and LF
 * inside strings, so a frame never splits — and `id` lets a reconnecting
 * `EventSource` send `Last-Event-ID`. The stream pulls only when the client
 * has taken the previous chunk, and then takes the events the run has
 * already queued (up to 64) as one chunk, so a slow client leaves events in
 * the run's iterator queue, where the bus's backpressure applies.
 * @module
 */
import { type QueuedEvents, TAKE_QUEUED } from '../core/event-bus.js';
import { type EventType, isTerminalEvent, type TandemEvent } from '../core/events.js';
import { type CancelTimer, type Clock, systemClock } from '../core/seams.js';

/** Options of {@link toSSE}. */
export interface ToSSEOptions {
  /** Interval of the `: ping` comments that keep proxies from closing an idle stream; 0 disables them. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Closes the stream and releases the events (e.g. the request's signal). */
  signal?: AbortSignal;
  /** Clock of the heartbeat. Default: the system clock. */
  clock?: Clock;
}

/** Options of {@link sseResponse}: the `Response`'s and {@link toSSE}'s. */
export interface SSEResponseInit extends ResponseInit, ToSSEOptions {}

/** Headers of an SSE response; `x-accel-buffering: no` stops nginx from buffering it. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

const ALL_TYPES: Record<EventType, true> = {
  run_started: true,
  stage: true,
  routing: true,
  plan_overview: true,
  plan_step_started: true,
  plan_step_completed: true,
  plan_step_failed: true,
  plan_revised: true,
  todo_update: true,
  token: true,
  reasoning: true,
  partial_object: true,
  tool_call: true,
  tool_result: true,
  tool_progress: true,
  browser_action: true,
  browser_stream: true,
  context_pressure: true,
  terminal_command: true,
  terminal_output: true,
  terminal_error: true,
  terminal_complete: true,
  workspace_update: true,
  handoff: true,
  skill_output: true,
  source: true,
  interrupt: true,
  interrupt_response: true,
  guardrail: true,
  retry: true,
  fallback: true,
  compression: true,
  usage: true,
  budget: true,
  unpriced_models: true,
  memory: true,
  parallel_start: true,
  parallel_complete: true,
  complete: true,
  error: true,
};

/**
 * Every event type: the names a browser `EventSource` listens to, since
 * frames carry `event: <type>` and `onmessage` only sees unnamed ones.
 */
export const EVENT_TYPES: readonly EventType[] = Object.keys(ALL_TYPES) as EventType[];

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');
const noop = () => {};
/** Most events, and characters, in one chunk. */
const MAX_BATCH = 64;
const MAX_BATCH_CHARS = 64 * 1024;

/** One event as an SSE frame. */
export function formatSSE(event: TandemEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${toJson(event)}\n\n`;
}

/**
 * The event as JSON. Tool arguments and skill outputs are `unknown`: one
 * holding a BigInt or a cycle still becomes a frame (BigInts as strings,
 * cycles as `"[Circular]"`) instead of breaking the stream.
 */
function toJson(event: TandemEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(event, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[Circular]';
        seen.add(value);
      }
      return value;
    });
  }
}

/**
 * Streams `events` as SSE. The stream closes after the terminal event
 * (`complete` / `error`) or when the events end; cancelling it (the client
 * went away) or aborting `signal` calls the iterator's `return()`, which
 * releases the run's queue for it at once. An iterator that throws errors the
 * stream.
 */
export function toSSE(
  events: AsyncIterable<TandemEvent>,
  options: ToSSEOptions = {},
): ReadableStream<Uint8Array> {
  const { signal, clock = systemClock } = options;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const iterator = events[Symbol.asyncIterator]();
  let finished = false;
  let cancelTimer: CancelTimer = noop;
  let onAbort = noop;

  /** Stops the heartbeat and, unless the iterator ended itself, releases it. Runs once. */
  const finish = (release: boolean): boolean => {
    if (finished) return false;
    finished = true;
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
    if (release) {
      try {
        Promise.resolve(iterator.return?.()).catch(noop);
      } catch {
        // A `return()` that throws has nothing left to release.
      }
    }
    return true;
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal?.aborted) {
        finish(true);
        controller.close();
        return;
      }
      onAbort = () => {
        if (finish(true)) controller.close();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (heartbeatMs > 0) {
        const beat = () => {
          controller.enqueue(PING);
          cancelTimer = clock.setTimer(heartbeatMs, beat);
        };
        cancelTimer = clock.setTimer(heartbeatMs, beat);
      }
    },
    async pull(controller) {
      if (finished) return;
      let result: IteratorResult<TandemEvent>;
      try {
        result = await iterator.next();
      } catch (error) {
        if (finish(false)) controller.error(error);
        return;
      }
      if (finished) return;
      if (result.done) {
        finish(false);
        controller.close();
        return;
      }
      // Events the run already queued go out in the same chunk: one encode and one enqueue per burst.
      let text = formatSSE(result.value);
      let last = result.value;
      const take = (iterator as Partial<QueuedEvents>)[TAKE_QUEUED];
      for (let n = 1; take && n < MAX_BATCH && text.length < MAX_BATCH_CHARS && !isTerminalEvent(last); n++) {
        const queued = take.call(iterator);
        if (!queued) break;
        last = queued;
        text += formatSSE(queued);
      }
      controller.enqueue(encoder.encode(text));
      if (isTerminalEvent(last) && finish(true)) controller.close();
    },
    cancel() {
      finish(true);
    },
  });
}

/**
 * A `Response` streaming `events` (e.g. a `Run`) as SSE, with
 * {@link SSE_HEADERS}; headers in `init` are added and win.
 *
 * ```ts
 * // any fetch-style server: Hono, Next.js route handlers, Bun.serve, Deno.serve, workers
 * export const GET = (req: Request) => sseResponse(orchestrator.run(task), { signal: req.signal });
 * ```
 */
export function sseResponse(events: AsyncIterable<TandemEvent>, init: SSEResponseInit = {}): Response {
  const { heartbeatMs, signal, clock, headers: extra, ...responseInit } = init;
  const headers = new Headers(SSE_HEADERS);
  new Headers(extra).forEach((value, name) => {
    headers.set(name, value);
  });
  return new Response(toSSE(events, { heartbeatMs, signal, clock }), { ...responseInit, headers });
}
