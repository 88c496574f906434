/**
 * The events of a run that become span events (not spans): their names and
 * attributes.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { TandemEvent } from '../core/events.js';
import { type ContentPolicy, content, put } from './values.js';

/** Event types recorded as span events on the innermost open span. */
export type SpanEventType =
  | 'retry'
  | 'fallback'
  | 'guardrail'
  | 'compression'
  | 'interrupt'
  | 'interrupt_response'
  | 'routing'
  | 'plan_overview'
  | 'plan_revised'
  | 'handoff'
  | 'unpriced_models';

/** The attributes of a span event for `event`; content fields only under `policy`. */
export function spanEventAttributes(event: TandemEvent<SpanEventType>, policy: ContentPolicy): Attributes {
  const a: Attributes = {};
  put(a, 'gen_ai.agent.name', event.agent);
  put(a, 'tandem.step.id', event.stepId);
  switch (event.type) {
    case 'retry':
      a['tandem.model'] = event.model;
      a['tandem.retry.attempt'] = event.attempt;
      a['tandem.retry.delay_ms'] = event.delayMs;
      a['error.type'] = event.error.kind;
      a['tandem.error.message'] = event.error.message;
      break;
    case 'fallback':
      a['tandem.fallback.from'] = event.from;
      a['tandem.fallback.to'] = event.to;
      a['error.type'] = event.error.kind;
      a['tandem.error.message'] = event.error.message;
      break;
    case 'guardrail':
      a['tandem.guardrail.stage'] = event.stage;
      a['tandem.guardrail.rule'] = event.rule;
      a['tandem.guardrail.action'] = event.action;
      a['tandem.guardrail.blocked'] = event.blocked;
      a['tandem.guardrail.reason'] = event.reason;
      break;
    case 'compression':
      a['tandem.compression.method'] = event.method;
      a['tandem.compression.tokens_before'] = event.tokensBefore;
      a['tandem.compression.tokens_after'] = event.tokensAfter;
      a['tandem.compression.messages_before'] = event.messagesBefore;
      a['tandem.compression.messages_after'] = event.messagesAfter;
      put(a, 'tandem.compression.reason', event.reason);
      break;
    case 'interrupt': {
      const i = event.interrupt;
      a['tandem.interrupt.id'] = i.id;
      a['tandem.interrupt.kind'] = i.kind;
      a['tandem.interrupt.title'] = i.title;
      a['tandem.interrupt.timeout_ms'] = i.timeoutMs;
      a['tandem.interrupt.default_action'] = i.defaultAction;
      put(a, 'gen_ai.tool.name', i.toolName);
      put(a, 'gen_ai.tool.call.id', i.toolCallId);
      break;
    }
    case 'interrupt_response':
      a['tandem.interrupt.id'] = event.interruptId;
      a['tandem.interrupt.action'] = event.action;
      a['tandem.interrupt.timed_out'] = event.timedOut;
      break;
    case 'routing':
      a['tandem.routing.agent'] = event.agent;
      a['tandem.routing.confidence'] = event.confidence;
      a['tandem.routing.method'] = event.method;
      a['tandem.routing.reason'] = event.reason;
      put(a, 'tandem.routing.complexity', event.complexity);
      put(a, 'tandem.routing.low_confidence', event.lowConfidence);
      break;
    case 'plan_overview':
      a['tandem.plan.title'] = event.title;
      a['tandem.plan.steps'] = event.steps.map((s) => s.id);
      break;
    case 'plan_revised':
      a['tandem.plan.revision'] = event.revision;
      a['tandem.plan.reason'] = event.reason;
      a['tandem.plan.steps'] = event.steps.map((s) => s.id);
      break;
    case 'handoff':
      a['tandem.handoff.from'] = event.from;
      a['tandem.handoff.to'] = event.to;
      a['tandem.handoff.accepted'] = event.accepted;
      put(a, 'tandem.handoff.reason', event.reason);
      put(a, 'tandem.handoff.task', content(policy, event.task));
      break;
    case 'unpriced_models':
      a['tandem.unpriced.models'] = event.models;
      a['tandem.budget.max_cost_usd'] = event.maxCostUsd;
      break;
  }
  return a;
}
