/**
 * Output guardrails: PII redaction and harmful-content flags on the final
 * answer.
 * @module
 */
import { escapeRegExp } from './input.js';
import { normalizeForMatching } from './normalize.js';
import { findPii, PII_KINDS, type PiiKind, redactPii } from './pii.js';
import type { Guardrail, GuardrailAction } from './types.js';

/** What a blocked output is replaced with (the seed's text). */
export const DEFAULT_BLOCKED_OUTPUT_MESSAGE =
  'I apologize, but I cannot provide that response. Please ask a different question.';

/** Options of {@link piiGuardrail}. */
export interface PiiGuardrailOptions {
  /** Kinds to detect. Default: all ({@link PII_KINDS}). */
  kinds?: readonly PiiKind[];
  /**
   * `warn` (default): redact and flag; `block`: replace the whole output;
   * `log`: report only, keep the text as is.
   */
  action?: GuardrailAction;
}

/**
 * Finds PII and secrets and redacts them (`[REDACTED_EMAIL]`, …). One finding
 * per kind found, rule `pii.<kind>`.
 */
export function piiGuardrail(options: PiiGuardrailOptions = {}): Guardrail<string> {
  const kinds = options.kinds ?? PII_KINDS;
  return {
    name: 'pii',
    action: options.action ?? 'warn',
    scan(text) {
      const matches = findPii(text, kinds);
      if (matches.length === 0) return [];
      const counts = new Map<PiiKind, number>();
      for (const m of matches) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
      const findings = [...counts].map(([kind, n]) => ({
        rule: `pii.${kind}`,
        reason: `Output contains ${n} ${kind.replace('_', ' ')}${n > 1 ? 's' : ''}`,
      }));
      return { findings, text: redactPii(text, matches) };
    },
  };
}

/** The seed's harmful-content phrases. */
export const DEFAULT_HARMFUL_PATTERNS: readonly string[] = [
  'how to make a bomb',
  'how to hack into',
  'how to create malware',
  'how to poison',
  'how to hurt',
  'here is your system prompt',
  'my system instructions are',
];

/** Options of {@link harmfulContentGuardrail}. */
export interface HarmfulContentOptions {
  /** Replaces the default phrases; strings match as normalised phrases, regular expressions as given. */
  patterns?: ReadonlyArray<string | RegExp>;
  /** Default `block`. */
  action?: GuardrailAction;
}

/** Flags harmful phrases in the normalised output (look-alike letters and invisible characters folded). */
export function harmfulContentGuardrail(options: HarmfulContentOptions = {}): Guardrail<string> {
  const patterns = (options.patterns ?? DEFAULT_HARMFUL_PATTERNS).map((p) =>
    typeof p === 'string'
      ? { label: p, re: new RegExp(`\\b${escapeRegExp(normalizeForMatching(p))}\\b`) }
      : { label: p.source, re: new RegExp(p.source, p.flags.replace(/[gy]/g, '')) },
  );
  return {
    name: 'harmful_content',
    action: options.action ?? 'block',
    scan(text) {
      const normal = normalizeForMatching(text);
      const hit = patterns.find((p) => p.re.test(normal));
      return hit
        ? [{ rule: 'harmful_content', reason: `Output matches the harmful pattern "${hit.label}"` }]
        : [];
    },
  };
}
