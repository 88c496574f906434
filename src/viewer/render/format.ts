/**
 * Numbers, durations and values as the viewer writes them.
 * @module
 */
import type { Usage } from '../../core/usage.js';

/** `850 ms`, `4.2 s`, `3 min 5 s`. */
export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** `12,345`. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `$0.0123`: four decimals under a dollar, two above. */
export function dollars(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** `1,200 in · 340 out (80 reasoning, 500 cached) · $0.0042`: the cost only when the usage has one. */
export function usageLine(usage: Usage): string {
  const extra = [
    usage.reasoningTokens ? `${count(usage.reasoningTokens)} reasoning` : '',
    usage.cachedInputTokens ? `${count(usage.cachedInputTokens)} cached` : '',
  ].filter(Boolean);
  let line = `${count(usage.inputTokens)} in · ${count(usage.outputTokens)} out`;
  if (extra.length) line += ` (${extra.join(', ')})`;
  if (usage.costUsd !== undefined) line += ` · ${dollars(usage.costUsd)}`;
  return line;
}

/** A value as indented JSON (strings as they are); a value JSON cannot hold becomes its `String`. */
export function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A value on one line, cut at `max` characters with an ellipsis. */
export function oneLine(value: unknown, max: number): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    text = String(value);
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
