/**
 * `instrument`: OpenTelemetry spans from the event stream of a run.
 * @module
 */
import { type Attributes, type Context, context, type Tracer, trace } from '@opentelemetry/api';
import type { TandemEvent } from '../core/events.js';
import type { TraceSettings } from './run-trace.js';
import { errorReporter, RunTraces } from './run-traces.js';

/** Anything that delivers every event to a `'*'` listener: a `Run` or an `EventBus`. */
export interface TandemEventSource {
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
}

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** The tracer spans are started on. Default: `trace.getTracer(tracerName)` from the global provider. */
  tracer?: Tracer;
  /** Name of the default tracer. Default `tandem-agents`. */
  tracerName?: string;
  /** Name of the root span of each run. Default `invoke_agent {agentName}`. */
  rootName?: string;
  /** `gen_ai.agent.name` of the root span, and its name's end. Default `tandem`. */
  agentName?: string;
  /** Extra attributes on the root span of each run. */
  attributes?: Attributes;
  /** Context whose active span becomes the root span's parent. Default: `context.active()` when `instrument` is called. */
  parentContext?: Context;
  /**
   * Record content: the run's input and output, tool arguments and results,
   * step descriptions and outputs, hand-off tasks. Default false — spans carry
   * names, ids, statuses, timings and token counts only.
   */
  captureContent?: boolean;
  /** Longest content string recorded when `captureContent` is on. Default 1000. */
  maxContentChars?: number;
  /**
   * Called when the tracer (or the instrumentation) throws; the run goes on
   * either way. Default: one `console.warn` per `instrument` call.
   */
  onError?: (error: unknown) => void;
}

/**
 * Records the runs whose events `source` delivers as OpenTelemetry spans, and
 * returns the function that stops recording.
 *
 * Each run gets a root span (from `run_started`, or from the first event seen
 * when attached late) with child spans per `stage`, per plan-step attempt and
 * per tool call; retries, fallbacks, guardrails, compressions, interrupts,
 * routing, plan revisions and hand-offs become span events; `usage` adds
 * gen_ai token counts to the span that spent them and to the root. Span times
 * are the events' `at`, so traces follow the run's clock. On `complete` or
 * `error` every span still open is ended with status ERROR "not closed".
 *
 * Instrumentation never breaks a run: unmatched or out-of-order events are
 * ignored, and a tracer that throws is reported to `onError`.
 *
 * ```ts
 * const run = orchestrator.run('Compare the two reports');
 * const detach = instrument(run, { attributes: { 'app.user': userId } });
 * await run.result; // spans are ended with the run
 * detach();
 * ```
 *
 * `detach()` stops listening and ends the spans of unfinished runs where they
 * were last seen, marked `tandem.incomplete`.
 */
export function instrument(source: TandemEventSource, options: InstrumentOptions = {}): () => void {
  const traces = new RunTraces(traceSettings(options), errorReporter(options.onError));
  source.on('*', traces.record);
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    source.off('*', traces.record);
    traces.abandonAll();
  };
}

/** The settings every run of one instrumentation shares. */
export function traceSettings(options: InstrumentOptions, parent: 'now' | 'per-run' = 'now'): TraceSettings {
  return {
    tracer: options.tracer ?? trace.getTracer(options.tracerName ?? 'tandem-agents'),
    parent: options.parentContext ?? (parent === 'now' ? context.active() : undefined),
    rootName: options.rootName ?? `invoke_agent ${options.agentName ?? 'tandem'}`,
    agentName: options.agentName ?? 'tandem',
    rootAttributes: options.attributes,
    content: { capture: options.captureContent ?? false, maxChars: options.maxContentChars ?? 1000 },
  };
}
