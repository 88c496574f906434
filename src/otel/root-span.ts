/**
 * The root span of a run: what it records when it starts and how the
 * terminal event ends it.
 * @module
 */
import { type Attributes, type Span, SpanStatusCode } from '@opentelemetry/api';
import type { TandemEvent } from '../core/events.js';
import { type ContentPolicy, content, put, setUsageAttributes, toHrTime } from './values.js';

/** Attributes of a root span started by `event` (normally `run_started`; any event when attached late). */
export function rootAttributes(
  event: TandemEvent,
  settings: { rootAttributes: Attributes | undefined; agentName: string; content: ContentPolicy },
): Attributes {
  const a: Attributes = { ...settings.rootAttributes };
  a['tandem.run.id'] = event.runId;
  a['gen_ai.operation.name'] = 'invoke_agent';
  a['gen_ai.agent.name'] = event.agent ?? settings.agentName;
  if (event.type === 'run_started') put(a, 'tandem.input', content(settings.content, event.input));
  else a['tandem.attached_late'] = true;
  return a;
}

/**
 * Ends the root span with the run's outcome: OK after `complete`; ERROR plus
 * an `exception` event after a `complete` of status `failed` (a run's
 * failure) or an `error` (misuse).
 * Usage becomes the run's total carried by the event.
 */
export function endRoot(span: Span, e: TandemEvent<'complete' | 'error'>, policy: ContentPolicy): void {
  if (e.type === 'complete') {
    span.setAttribute('tandem.run.status', e.status);
    span.setAttribute('tandem.output.length', e.output.length);
    const output = content(policy, e.output);
    if (output !== undefined) span.setAttribute('tandem.output', output);
    setUsageAttributes(span, e.usage);
    if (e.status !== 'failed') span.setStatus({ code: SpanStatusCode.OK });
    else if (e.error) failed(span, e.error, e.at);
    else span.setStatus({ code: SpanStatusCode.ERROR, message: 'run completed with status failed' });
  } else {
    failed(span, e.error, e.at);
    if (e.usage) setUsageAttributes(span, e.usage);
  }
  span.end(toHrTime(e.at));
}

/** Marks the root span failed with `error`: its kind, an `exception` event, status ERROR. */
function failed(span: Span, error: { kind: string; message: string }, at: number): void {
  span.setAttribute('error.type', error.kind);
  span.addEvent(
    'exception',
    { 'exception.type': error.kind, 'exception.message': error.message },
    toHrTime(at),
  );
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
