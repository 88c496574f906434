/**
 * The span trees of every run one instrumentation sees, fed event by event,
 * with the tracer's failures kept away from the run.
 * @module
 */
import { type Context, context } from '@opentelemetry/api';
import type { EventType, TandemEvent } from '../core/events.js';
import { RunTrace, type TraceSettings } from './run-trace.js';

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
  partial_object: false,
  tool_call: true,
  tool_result: true,
  tool_progress: false,
  browser_action: false,
  browser_stream: false,
  context_pressure: true,
  terminal_command: false,
  terminal_output: false,
  terminal_error: false,
  terminal_complete: false,
  workspace_update: false,
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
  budget: true,
  unpriced_models: true,
  memory: false,
  parallel_start: false,
  parallel_complete: false,
  complete: true,
  error: true,
};

/** Runs by id, each with its {@link RunTrace}. */
export class RunTraces {
  private readonly runs = new Map<string, RunTrace>();
  // The bus sends nothing after the terminal event; this guards sources that do.
  private endedRunId: string | undefined;

  constructor(
    readonly settings: TraceSettings,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Records one event of any run. */
  readonly record = (event: TandemEvent): void => {
    if (!TRACED[event.type]) return;
    if (event.runId === this.endedRunId) return;
    try {
      let run = this.runs.get(event.runId);
      if (!run) {
        run = new RunTrace(this.settings);
        this.runs.set(event.runId, run);
      }
      if (run.record(event)) this.end(event.runId);
    } catch (error) {
      if (event.type === 'complete' || event.type === 'error') this.end(event.runId);
      this.report(error);
    }
  };

  /** The context a call of `runId` with these tags runs under: its tool call, step or stage span, else the root. */
  contextFor(runId: string, parentId: string | undefined, stepId: string | undefined): Context {
    return this.runs.get(runId)?.contextFor(parentId, stepId) ?? this.settings.parent ?? context.active();
  }

  /** The context of an open tool call's span, when the run opened one for `callId`. */
  toolContext(runId: string, callId: string): Context | undefined {
    return this.runs.get(runId)?.toolContext(callId);
  }

  /** Ends the spans of unfinished runs where they were last seen. */
  abandonAll(): void {
    for (const run of this.runs.values()) {
      try {
        run.abandon();
      } catch (error) {
        this.report(error);
      }
    }
    this.runs.clear();
  }

  private end(runId: string): void {
    this.runs.delete(runId);
    this.endedRunId = runId;
  }
}

/** A reporter that calls `onError`, or warns once, and never throws. */
export function errorReporter(onError: ((error: unknown) => void) | undefined): (error: unknown) => void {
  let warned = false;
  const handler =
    onError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      console.warn('tandem-agents/otel: the tracer threw; spans of this run may be incomplete', error);
    });
  return (error) => {
    try {
      handler(error);
    } catch {
      // A throwing error handler must not reach the run either.
    }
  };
}
