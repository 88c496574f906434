/**
 * `tandem-agents/otel`: OpenTelemetry spans from the event stream of a run.
 * Needs the optional peer dependency `@opentelemetry/api`; runs on any
 * runtime.
 *
 * ```ts
 * import { instrument } from 'tandem-agents/otel';
 * const run = orchestrator.run(task);
 * instrument(run);
 * ```
 * @packageDocumentation
 */
export * from './instrument.js';
export { NOT_CLOSED } from './run-trace.js';
export * from './tracing.js';
