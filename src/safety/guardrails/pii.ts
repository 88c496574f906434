/**
 * PII and secret detection with redaction: emails, phone numbers, card
 * numbers (Luhn-checked), IBANs (mod-97-checked), US SSNs and API-key shapes.
 * Checksums keep order numbers and long ids from being redacted as cards.
 * @module
 */
import {
  API_KEY_DETECTOR,
  BEARER_TOKEN_DETECTOR,
  findMatches,
  redactMatches,
  type TextDetector,
} from '../../core/secrets.js';

/** Kinds of sensitive data {@link findPii} knows. */
export type PiiKind = 'email' | 'phone' | 'card' | 'iban' | 'ssn' | 'api_key' | 'bearer_token';

/** Every kind, in the order they are matched (longer, checked shapes first). */
export const PII_KINDS: readonly PiiKind[] = [
  'api_key',
  'bearer_token',
  'email',
  'iban',
  'card',
  'ssn',
  'phone',
];

/** One match in a text. */
export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
}

const DETECTORS: readonly TextDetector<PiiKind>[] = [
  API_KEY_DETECTOR,
  BEARER_TOKEN_DETECTOR,
  { kind: 'email', pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  { kind: 'iban', pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, valid: (m) => ibanValid(m[0]) },
  { kind: 'card', pattern: /\b\d(?:[ -]?\d){12,18}\b/g, valid: (m) => luhnValid(m[0].replace(/\D/g, '')) },
  { kind: 'ssn', pattern: /\b\d{3}-\d{2}-\d{4}\b/g },
  {
    kind: 'phone',
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,8}){1,4}\b/g,
    valid: (m) => phoneValid(m[0]),
  },
];

/** True when `digits` (13–19 of them) pass the Luhn checksum card numbers carry. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** True when `text` (spaces allowed) is an IBAN whose mod-97 check is 1 (ISO 13616). */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

// A phone number has a separator structure and 7–15 digits (E.164); plain
// digit runs, dates and version numbers do not pass.
function phoneValid(match: string): boolean {
  const digits = match.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  if (/^\d{4}[-.]\d{2}[-.]\d{2}$/.test(match)) return false;
  if (match.includes('.') && !match.startsWith('+') && !/\(/.test(match)) return false;
  return match.startsWith('+') || /\(\d+\)/.test(match) || /^\d{3}[ .-]\d{3}[ .-]\d{4}$/.test(match);
}

/** Finds sensitive data in `text`; overlapping matches keep the first kind in {@link PII_KINDS} order. */
export function findPii(text: string, kinds: readonly PiiKind[] = PII_KINDS): PiiMatch[] {
  return findMatches(
    text,
    DETECTORS.filter((d) => kinds.includes(d.kind)),
  );
}

/** `text` with every match replaced by `[REDACTED_<KIND>]`. */
export function redactPii(text: string, matches: readonly PiiMatch[]): string {
  return redactMatches(text, matches);
}
