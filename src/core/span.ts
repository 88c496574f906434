/**
 * The span types of the tracing seam, apart from it so that the `Emitter`
 * (which opens spans) and the seam (which sees events) do not import each
 * other.
 * @module
 */

/** A span attribute value, as OpenTelemetry takes them. */
export type SpanValue = string | number | boolean | string[] | number[];

/** Span attributes; `undefined` values are left out. */
export type SpanAttributes = Record<string, SpanValue | undefined>;

/** A span the core opened through the seam. */
export interface TraceSpan {
  setAttributes(attributes: SpanAttributes): void;
  addEvent(name: string, attributes?: SpanAttributes): void;
  /** What the call produced (a model's message, a tool's result), recorded only when content capture is on. */
  output(value: unknown): void;
}

/** What the core asks a span for. */
export interface SpanRequest {
  /** `model`: one model call attempt (a CLIENT span); `tool`: one tool execution. */
  kind: 'model' | 'tool';
  /** The span's name, e.g. `chat gpt-4o` or `execute_tool read_file`. */
  name: string;
  attributes: SpanAttributes;
  /** The tool call's id (`kind: 'tool'`), as in its `tool_call` event. */
  callId?: string;
  /** What the call is given (a model's messages, a tool's arguments), recorded only when content capture is on. */
  input?: unknown;
}
