/**
 * `instrument`: OpenTelemetry spans from the event stream of a run.
 * @module
 */
import { type Attributes, type Context, context, type Tracer, trace } from '@opentelemetry/api';
import type { EventType, TandemEvent } from '../core/events.js';
import { RunTrace, type TraceSettings } from './run-trace.js';

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
  /** Name of the root span of each run. Default `tandem.run`. */
  rootName?: string;
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
 * Event types that make spans, span events or usage. Token and reasoning
 * deltas are absent: the listener drops them with this one lookup, so the
 * per-token cost is constant and allocates nothing. Spelled out per type so
 * that a new event type needs a decision here.
 */
const TRACED: Readonly<Record<EventType, boolean>> = {
  run_started: true,
  stage: true,
  routing: true,
  plan_overview: true,
  plan_step_started: true,
  plan_step_completed: true,
  plan_step_failed: true,
  plan_revised: true,
  todo_update: false,
  token: false,
  reasoning: false,
  tool_call: true,
  tool_result: true,
  handoff: true,
  skill_output: false,
  source: false,
  interrupt: true,
  interrupt_response: true,
  guardrail: true,
  retry: true,
  fallback: true,
  compression: true,
  usage: true,
  parallel_start: false,
  parallel_complete: false,
  complete: true,
  error: true,
};

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
  const settings: TraceSettings = {
    tracer: options.tracer ?? trace.getTracer(options.tracerName ?? 'tandem-agents'),
    parent: options.parentContext ?? context.active(),
    rootName: options.rootName ?? 'tandem.run',
    rootAttributes: options.attributes,
    content: { capture: options.captureContent ?? false, maxChars: options.maxContentChars ?? 1000 },
  };
  let warned = false;
  const onError =
    options.onError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      console.warn('tandem-agents/otel: the tracer threw; spans of this run may be incomplete', error);
    });
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // A throwing error handler must not reach the run either.
    }
  };

  const runs = new Map<string, RunTrace>();
  // The bus sends nothing after the terminal event; this guards sources that do.
  let endedRunId: string | undefined;
  const listener = (event: TandemEvent): void => {
    if (!TRACED[event.type]) return;
    if (event.runId === endedRunId) return;
    try {
      let run = runs.get(event.runId);
      if (!run) {
        run = new RunTrace(settings);
        runs.set(event.runId, run);
      }
      if (run.record(event)) {
        runs.delete(event.runId);
        endedRunId = event.runId;
      }
    } catch (error) {
      if (event.type === 'complete' || event.type === 'error') {
        runs.delete(event.runId);
        endedRunId = event.runId;
      }
      report(error);
    }
  };

  source.on('*', listener);
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    source.off('*', listener);
    for (const run of runs.values()) {
      try {
        run.abandon();
      } catch (error) {
        report(error);
      }
    }
    runs.clear();
  };
}
