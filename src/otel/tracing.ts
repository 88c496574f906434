/**
 * `otelTracing`: the core's tracing seam on OpenTelemetry. Besides the span
 * tree `instrument` builds from events, every model call attempt gets a
 * CLIENT span, and model calls and tool executions run with their span as the
 * active context — so spans started inside a tool, by an adapter's `fetch` or
 * by a sandbox command (user code or auto-instrumented clients) nest under
 * them. Needs a context manager (the Node SDK registers an
 * `AsyncLocalStorageContextManager`) for the nesting to reach across awaits.
 * @module
 */
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanAttributes, SpanOrigin, SpanRequest, TraceSpan, Tracing } from '../core/tracing.js';
import type { InstrumentOptions } from './instrument.js';
import { traceSettings } from './instrument.js';
import { errorReporter, RunTraces } from './run-traces.js';
import { type ContentPolicy, jsonContent } from './values.js';

/** An OpenTelemetry {@link Tracing}, with a way to end the spans of runs still open. */
export interface OtelTracing extends Tracing {
  /** Ends the spans of unfinished runs where they were last seen, marked `tandem.incomplete`. */
  shutdown(): void;
}

/**
 * A {@link Tracing} for `runtime.tracing`: give it to an Orchestrator,
 * Executor, HandoffManager or SkillRegistry and each of their runs is traced.
 *
 * ```ts
 * import { otelTracing } from 'tandem-agents/otel';
 * const orchestrator = new Orchestrator({ models: { planner: model, executor: model }, tools, runtime: { tracing: otelTracing() } });
 * ```
 *
 * Options are {@link instrument}'s; `parentContext` defaults to the context
 * active when each run starts its root span.
 */
export function otelTracing(options: InstrumentOptions = {}): OtelTracing {
  const settings = traceSettings(options, 'per-run');
  const report = errorReporter(options.onError);
  const traces = new RunTraces(settings, report);
  return {
    specificationVersion: 'v1',
    onEvent: traces.record,
    inSpan<T>(origin: SpanOrigin, request: SpanRequest, fn: (span: TraceSpan) => Promise<T>): Promise<T> {
      const { runId, tags } = origin;
      if (request.kind === 'tool' && request.callId !== undefined) {
        // The tool's span was opened by its `tool_call` event; the tool runs inside it.
        const active = traces.toolContext(runId, request.callId);
        if (active)
          return context.with(active, () => fn(spanHandle(trace.getSpan(active)!, settings.content)));
      }
      let span: Span;
      let parent: Context;
      try {
        parent = traces.contextFor(runId, tags.parentId, tags.stepId);
        span = settings.tracer.startSpan(
          request.name,
          {
            kind: request.kind === 'model' ? SpanKind.CLIENT : SpanKind.INTERNAL,
            attributes: defined(request.attributes),
          },
          parent,
        );
        if (tags.agent !== undefined) span.setAttribute('gen_ai.agent.name', tags.agent);
        const input = jsonContent(settings.content, request.input);
        if (input !== undefined) span.setAttribute('gen_ai.input.messages', input);
      } catch (error) {
        report(error);
        return fn(NO_SPAN);
      }
      return context.with(trace.setSpan(parent, span), () => runInSpan(span, settings.content, fn));
    },
    shutdown: () => traces.abandonAll(),
  };
}

async function runInSpan<T>(
  span: Span,
  policy: ContentPolicy,
  fn: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  try {
    const result = await fn(spanHandle(span, policy));
    span.setStatus({ code: SpanStatusCode.OK });
    return result;
  } catch (error) {
    const kind = (error as { kind?: unknown })?.kind;
    const type = typeof kind === 'string' ? kind : ((error as Error)?.name ?? 'Error');
    span.setAttribute('error.type', type);
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
    throw error;
  } finally {
    span.end();
  }
}

function spanHandle(span: Span, policy: ContentPolicy): TraceSpan {
  return {
    setAttributes: (attributes) => span.setAttributes(defined(attributes)),
    addEvent: (name, attributes) => span.addEvent(name, attributes && defined(attributes)),
    output(value) {
      const text = jsonContent(policy, value);
      if (text !== undefined) span.setAttribute('gen_ai.output.messages', text);
    },
  };
}

const NO_SPAN: TraceSpan = { setAttributes() {}, addEvent() {}, output() {} };

/** The attributes without `undefined` values (the SDK warns on them). */
function defined(attributes: SpanAttributes): Record<string, Exclude<SpanAttributes[string], undefined>> {
  const out: Record<string, Exclude<SpanAttributes[string], undefined>> = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
