/**
 * Converting tandem values into OpenTelemetry ones: event times, token usage,
 * and user content clipped for attributes.
 * @module
 */
import type { Attributes, AttributeValue, HrTime, Span } from '@opentelemetry/api';
import type { Usage } from '../core/usage.js';

/**
 * An event's `at` (ms since the epoch) as an OTel `HrTime`. A plain number
 * would not do: the SDK reads numbers below `performance.now()` as
 * performance timestamps and shifts them, which would move every span of a
 * run whose clock is a test clock (or simply in the past).
 */
export function toHrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

/** Sets `key` when `value` is defined (the SDK warns on undefined values). */
export function put(attributes: Attributes, key: string, value: AttributeValue | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

/** Writes a usage record as gen_ai usage attributes (overwriting earlier totals). */
export function setUsageAttributes(span: Span, usage: Usage): void {
  span.setAttribute('gen_ai.usage.input_tokens', usage.inputTokens);
  span.setAttribute('gen_ai.usage.output_tokens', usage.outputTokens);
  span.setAttribute('gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens);
  span.setAttribute('gen_ai.usage.reasoning.output_tokens', usage.reasoningTokens);
  if (usage.costUsd !== undefined) span.setAttribute('tandem.usage.cost_usd', usage.costUsd);
}

/** How user content (inputs, outputs, tool arguments and results) reaches attributes. */
export interface ContentPolicy {
  /** Record content at all. */
  capture: boolean;
  /** Longest string kept; longer ones are cut and marked with `…`. */
  maxChars: number;
}

/** `text` clipped to the policy, or `undefined` when content is not captured. */
export function content(policy: ContentPolicy, text: string): string | undefined {
  if (!policy.capture) return undefined;
  return text.length > policy.maxChars ? `${text.slice(0, policy.maxChars)}…` : text;
}

/** A value (tool arguments) as JSON text under the policy; unserialisable values become `[unserialisable]`. */
export function jsonContent(policy: ContentPolicy, value: unknown): string | undefined {
  if (!policy.capture) return undefined;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = '[unserialisable]';
  }
  return content(policy, text);
}
