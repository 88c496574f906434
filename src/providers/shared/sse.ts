/**
 * Server-sent events from a `fetch` response body, parsed with
 * `eventsource-parser`. Failures surface as {@link ModelError}s; a body that
 * stops mid-event is flushed so the adapter sees (and rejects) the fragment
 * rather than losing it silently.
 * @module
 */
import { createParser } from 'eventsource-parser';
import { ModelError } from '../../core/errors.js';
import { abortedError, type ErrorContext, networkError } from './errors.js';

/** One SSE event. Comments and `retry:` lines are dropped. */
export interface SSEEvent {
  /** The `event:` field, when the server sent one. */
  event?: string;
  data: string;
  id?: string;
}

/** What went wrong reading a piece of a stream. */
export interface MalformedDetail {
  /** What the provider calls one piece of its stream; `event` when absent. */
  unit?: 'event' | 'chunk';
  /** The parse error, when there was one. */
  cause?: unknown;
}

/**
 * The `invalid_response` {@link ModelError} for stream data that cannot be
 * read; `model` is the `provider:model` id.
 */
export function malformedEventError(
  data: string,
  model: string,
  { unit = 'event', cause }: MalformedDetail = {},
): ModelError {
  return new ModelError('invalid_response', `${model}: malformed stream ${unit}: ${data.slice(0, 200)}`, {
    model,
    body: data,
    cause,
  });
}

/** Parses the JSON `data` of one stream event; text that is not JSON throws {@link malformedEventError}. */
export function parseEventJSON(data: string, model: string, unit: 'event' | 'chunk' = 'event'): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    throw malformedEventError(data, model, { unit, cause });
  }
}

const UNKNOWN: ErrorContext = { provider: 'provider', model: 'model' };

function aborted(signal: AbortSignal, ctx: ErrorContext): ModelError {
  return abortedError(ctx, signal.reason);
}

/**
 * Yields the events of an SSE response body as they arrive. Aborting `signal`
 * cancels the body and throws an `aborted` error; a network failure mid-stream
 * throws a `connection` error; a missing body throws `invalid_response`.
 * Stopping the iteration early releases the connection.
 */
export async function* readSSE(
  response: Response,
  signal?: AbortSignal,
  ctx: ErrorContext = UNKNOWN,
): AsyncGenerator<SSEEvent> {
  const model = `${ctx.provider}:${ctx.model}`;
  if (!response.body) {
    throw new ModelError('invalid_response', `${model}: streaming response has no body`, { model });
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const queue: SSEEvent[] = [];
  const parser = createParser({
    onEvent(message) {
      const event: SSEEvent = { data: message.data };
      if (message.event) event.event = message.event;
      if (message.id) event.id = message.id;
      queue.push(event);
    },
  });
  // A custom fetch may ignore the signal; cancelling the reader unblocks read() either way.
  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  // One network chunk can hold several events: an abort stops the ones not yet handed out too.
  function* received(): Generator<SSEEvent> {
    for (const event of queue.splice(0)) {
      if (signal?.aborted) throw aborted(signal, ctx);
      yield event;
    }
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) throw aborted(signal, ctx);
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw aborted(signal, ctx);
        throw networkError(error, ctx);
      }
      if (signal?.aborted) throw aborted(signal, ctx);
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* received();
    }
    // Dispatch an event the server did not terminate with a blank line.
    parser.feed(`${decoder.decode()}\n\n`);
    yield* received();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => undefined);
  }
}
