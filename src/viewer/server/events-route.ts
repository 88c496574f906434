/**
 * `GET …/events`: a run's events as Server-Sent Events, through the core's
 * `toSSE` (frames `id: <seq>`, `event: <type>`, `data: <json>`). A reconnect
 * resumes after the `Last-Event-ID` the browser sends (or `?after=<seq>`, for
 * a page that opens a new `EventSource` itself), so no event is lost or
 * repeated while the run's log holds it. The stream starts with a `retry:`
 * field so the browser reconnects at the handler's pace.
 * @module
 */
import type { Clock } from '../../core/seams.js';
import { SSE_HEADERS, toSSE } from '../../state/sse.js';
import { headers } from './html.js';
import type { RunLog } from './run-log.js';

const encoder = new TextEncoder();

/** The SSE response for `log`, from the event after the client's last one (its header or the request URL's `?after=`). */
export function eventsResponse(
  request: Request,
  log: RunLog,
  options: { clock: Clock; retryMs: number; heartbeatMs: number },
): Response {
  const url = new URL(request.url);
  const after = Math.max(seqOf(request.headers.get('last-event-id')), seqOf(url.searchParams.get('after')));
  const events = toSSE(log.after(after), {
    signal: request.signal,
    clock: options.clock,
    heartbeatMs: options.heartbeatMs,
  });
  const body = prefixed(encoder.encode(`retry: ${Math.max(0, Math.round(options.retryMs))}\n\n`), events);
  return new Response(body, { headers: headers({ ...SSE_HEADERS }) });
}

/** A non-negative integer `seq`, or 0 for anything else. */
function seqOf(value: string | null): number {
  const n = Number(value);
  return value !== null && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** `stream` after `first`; cancelling it cancels `stream`. */
function prefixed(first: Uint8Array, stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let sent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
        return;
      }
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
