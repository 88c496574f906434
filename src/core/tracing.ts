/**
 * The tracing seam. The core opens a span around each model call attempt and
 * each tool execution through a {@link Tracing}, and runs the call inside it,
 * so spans the user's code or an auto-instrumented client (HTTP, database)
 * starts during the call nest under the right parent. The core knows nothing
 * of OpenTelemetry: `tandem-agents/otel` implements this seam with its
 * context API. Without a `Tracing`, calls run as they are, at no cost.
 * @module
 */
import type { EventTags, TandemEvent } from './events.js';
import type { SpanRequest, TraceSpan } from './span.js';

export type { SpanAttributes, SpanRequest, SpanValue, TraceSpan } from './span.js';

/** Where a span is opened: the run and the tags of the emitter that asked. */
export interface SpanOrigin {
  runId: string;
  tags: EventTags;
}

/**
 * Implemented by tracing integrations. Version 1 of the seam.
 *
 * `inSpan` must call `fn` exactly once and return (or throw) what it returns
 * (or throws), ending the span when it settles — marked failed, with the
 * error's `kind` as its type, when it throws.
 */
export interface Tracing {
  readonly specificationVersion: 'v1';
  inSpan<T>(origin: SpanOrigin, request: SpanRequest, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** Called with every event of a run that uses this tracing, in order (run, stage and step spans come from them). */
  onEvent?(event: TandemEvent): void;
}
