/**
 * A tandem run as the AI SDK's UI message stream: a `ReadableStream` of
 * chunks, and the SSE `Response` `useChat` reads.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import { UI_MESSAGE_STREAM_HEADERS, type UIChunk } from './chunks.js';
import { UIChunkConverter, type UIStreamOptions } from './convert.js';

const encoder = new TextEncoder();

/** Options of {@link toUIMessageStreamResponse}: the stream's, the response's status and extra headers. */
export interface UIStreamResponseInit extends UIStreamOptions {
  status?: number;
  headers?: Record<string, string>;
}

/** A numbered chunk: `index` counts from 1 over the whole run, the SSE frame's `id`. */
export interface IndexedChunk {
  index: number;
  chunk: UIChunk;
}

/**
 * The UI message chunks of a run (a `Run`, or any async iterable of its
 * events, e.g. a resumed run). Attach it right after `run()`: it iterates the
 * run's events from the start. Cancelling the stream stops reading; the run
 * goes on (abort it yourself if the client going away should end it).
 */
export function toUIMessageStream(
  run: AsyncIterable<TandemEvent>,
  options: UIStreamOptions = {},
): ReadableStream<UIChunk> {
  const chunks = indexedChunks(run, { ...options, after: 0 });
  return new ReadableStream<UIChunk>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value.chunk);
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
}

/** {@link toUIMessageStream} as a Server-Sent Events `Response` with the `x-vercel-ai-ui-message-stream: v1` header. */
export function toUIMessageStreamResponse(
  run: AsyncIterable<TandemEvent>,
  init: UIStreamResponseInit = {},
): Response {
  const { status, headers, ...options } = init;
  return sseResponse(indexedChunks(run, { ...options, after: 0 }), { status, headers });
}

/** The chunks of `events` after the first `after`, numbered; deterministic, so a reconnect can skip what it has. */
export async function* indexedChunks(
  events: AsyncIterable<TandemEvent>,
  options: UIStreamOptions & { after: number },
): AsyncGenerator<IndexedChunk, void, undefined> {
  const converter = new UIChunkConverter(options);
  let index = 0;
  for await (const event of events) {
    for (const chunk of converter.push(event)) {
      index += 1;
      if (index > options.after) yield { index, chunk };
    }
  }
}

/**
 * Frames numbered chunks as SSE (`id: <index>`, `data: <json>`; the JSON
 * escapes every character that could end a frame, so model text and tool
 * output cross as data), ending with `data: [DONE]` as the AI SDK's own.
 */
export function sseResponse(
  chunks: AsyncIterator<IndexedChunk>,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  let finished = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (finished) return;
      const { done, value } = await chunks.next();
      if (done) {
        finished = true;
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`id: ${value.index}\ndata: ${JSON.stringify(value.chunk)}\n\n`));
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
  return new Response(body, {
    status: init.status ?? 200,
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...init.headers },
  });
}
