/**
 * Finding and redacting sensitive spans of text, and the detectors of
 * secrets (API keys, bearer tokens, private keys, passwords and other values
 * assigned to secret-named keys). Shared by the output guardrail and by the
 * context compressor, which redacts secrets before a summariser reads them.
 * @module
 */

/** A pattern for one kind of sensitive text. */
export interface TextDetector<K extends string> {
  kind: K;
  /** A global pattern, used synchronously from `lastIndex` 0. */
  pattern: RegExp;
  /** Rejects a match (a failed checksum). */
  valid?: (match: RegExpMatchArray) => boolean;
  /**
   * The span to redact when it is not the whole match (the value after a
   * `KEY=` match), or `undefined` to reject the match.
   */
  span?: (match: RegExpMatchArray, text: string) => readonly [start: number, end: number] | undefined;
}

/** One detected span of a text. */
export interface TextMatch<K extends string> {
  kind: K;
  start: number;
  end: number;
}

/** Spans `detectors` find in `text`, by position; where spans overlap the earlier detector wins. */
export function findMatches<K extends string>(
  text: string,
  detectors: readonly TextDetector<K>[],
): TextMatch<K>[] {
  const matches: TextMatch<K>[] = [];
  // One flag per character keeps overlap checks linear however many matches there are.
  let covered: Uint8Array | undefined;
  const taken = (start: number, end: number) => {
    for (let i = start; covered && i < end; i++) if (covered[i]) return true;
    return false;
  };
  for (const detector of detectors) {
    // exec on the shared pattern, not matchAll: most texts are short, and matchAll copies the pattern.
    const pattern = detector.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const at = m.index;
      if (m[0] === '') pattern.lastIndex++;
      if (taken(at, at + m[0].length) || (detector.valid && !detector.valid(m))) continue;
      const [start, end] = detector.span ? (detector.span(m, text) ?? [0, 0]) : [at, at + m[0].length];
      if (start === end || taken(start, end)) continue;
      covered ??= new Uint8Array(text.length);
      covered.fill(1, start, end);
      matches.push({ kind: detector.kind, start, end });
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/** `text` with every match (sorted, not overlapping) replaced by `[REDACTED_<KIND>]`. */
export function redactMatches(text: string, matches: readonly TextMatch<string>[]): string {
  let out = '';
  let last = 0;
  for (const m of matches) {
    out += `${text.slice(last, m.start)}[REDACTED_${m.kind.toUpperCase()}]`;
    last = m.end;
  }
  return out + text.slice(last);
}

/** Kinds of secret {@link redactSecrets} replaces. `secret` is a value assigned to a secret-named key or a URL password. */
type SecretKind = 'private_key' | 'api_key' | 'bearer_token' | 'secret';

/** Provider key shapes: OpenAI/Anthropic, AWS access key ids, GitHub, Slack, Google, Stripe, Hugging Face. */
export const API_KEY_DETECTOR: TextDetector<'api_key'> = {
  kind: 'api_key',
  pattern:
    /\b(?:sk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|xox[abposr]-[A-Za-z0-9-]{10,})\b/g,
};

/** `Bearer <token>` as in an `Authorization` header. */
export const BEARER_TOKEN_DETECTOR: TextDetector<'bearer_token'> = {
  kind: 'bearer_token',
  pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/g,
};

// A PEM block (headers and base64), or its start when the text was cut before the END line. The body
// is lazy over a closed class, so one scan consumes what it covers: linear even with END missing.
const PRIVATE_KEY =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[A-Za-z0-9+/=\s:,.-]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|(?![A-Za-z0-9+/=\s:,.-]))/g;

const MORE_API_KEYS =
  /\b(?:AIza[0-9A-Za-z_-]{35}|[sr]k_(?:live|test)_[0-9A-Za-z]{16,}|hf_[A-Za-z0-9]{30,})\b/g;

// The password of `scheme://user:password@host` (group 1, ending the match), up to the last `@` before
// the host (an unescaped `@` in it). Starting at the literal `://` keeps the scan fast.
const URL_PASSWORD = /:\/\/[^\s:/@]{0,128}:([^\s/]{1,256})(?=@[^\s/@]+)/g;

// `key=value`, `key: value`, `"key": "value"`, `--key=value`, `?key=value&`, found by the secret word
// that ends the key (group 1; group 2 a closing quote): scanning for those few words is fast, and the key
// is read backwards from there. The value is read only after a secret key.
const SECRET_KEY_END =
  /(pass(?:word|wd|phrase)?|secret|token|credentials?|authorization|key)(["']?)[ \t]*[:=][ \t]*/gi;
const KEY_CHAR = /[\w.-]/;
const KEY_START = /^-{0,2}[A-Za-z_]/;
const MAX_KEY = 66;
const QUOTED_VALUE = /"((?:[^"\\\n]|\\.){1,4096})"|'([^'\n]{1,4096})'/y;
const BARE_VALUE = /(?:(?:Basic|Bearer|Token)[ \t]+)?(?:\$\{\w+\}|[^\s"'`,;&<>(){}[\]]{1,4096})/y;

const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'secret',
  'token',
  'credential',
  'credentials',
  'authorization',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
]);
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'signing', 'encryption', 'master']);

/** True when a key name ends in a secret word: `DB_PASSWORD`, `accessToken`, `x-api-key`, `AWS_SECRET_ACCESS_KEY`. */
function isSecretName(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words.at(-1) ?? '';
  return SECRET_WORDS.has(last) || (last === 'key' && KEY_QUALIFIERS.has(words.at(-2) ?? ''));
}

// Not secrets themselves: references to one, masks, and literals.
const NOT_A_VALUE = /^(?:\$\{?[A-Za-z_]\w*\}?|\*+|\[REDACTED_\w+\]|null|none|true|false|undefined)$/i;

// The key a SECRET_KEY_END match ends: the identifier before it, opened by the same quote that closes it.
function keyBefore(match: RegExpMatchArray, text: string): string | undefined {
  let start = match.index ?? 0;
  const end = start + (match[1] ?? '').length;
  while (start > 0 && end - start <= MAX_KEY && KEY_CHAR.test(text[start - 1]!)) start--;
  const key = text.slice(start, end);
  if (end - start > MAX_KEY || !KEY_START.test(key)) return undefined;
  return match[2] && text[start - 1] !== match[2] ? undefined : key;
}

// Where the value assigned by `match` (a SECRET_KEY_END) lies, when its key is secret.
function assignedValue(match: RegExpMatchArray, text: string): readonly [number, number] | undefined {
  const key = keyBefore(match, text);
  if (key === undefined || !isSecretName(key)) return undefined;
  const at = (match.index ?? 0) + match[0].length;
  QUOTED_VALUE.lastIndex = at;
  const quoted = QUOTED_VALUE.exec(text);
  let value: string | undefined;
  let start = at;
  if (quoted) {
    value = quoted[1] ?? quoted[2];
    start = at + 1;
  } else {
    BARE_VALUE.lastIndex = at;
    value = BARE_VALUE.exec(text)?.[0];
  }
  return value && !NOT_A_VALUE.test(value) ? [start, start + value.length] : undefined;
}

// The tail of a match held by capture group 1.
function groupOneSpan(match: RegExpMatchArray): readonly [number, number] {
  const end = (match.index ?? 0) + match[0].length;
  return [end - (match[1] ?? '').length, end];
}

/** Every secret detector, most specific first. */
const SECRET_DETECTORS: readonly TextDetector<SecretKind>[] = [
  { kind: 'private_key', pattern: PRIVATE_KEY },
  API_KEY_DETECTOR,
  { kind: 'api_key', pattern: MORE_API_KEYS },
  BEARER_TOKEN_DETECTOR,
  { kind: 'secret', pattern: URL_PASSWORD, span: groupOneSpan },
  { kind: 'secret', pattern: SECRET_KEY_END, span: assignedValue },
];

/**
 * `text` with secrets replaced by placeholders (`[REDACTED_API_KEY]`,
 * `[REDACTED_SECRET]`, …): key names stay, so a reader still learns that a
 * secret was there. `DB_PASSWORD=hunter2` → `DB_PASSWORD=[REDACTED_SECRET]`.
 */
export function redactSecrets(text: string): string {
  return redactMatches(text, findMatches(text, SECRET_DETECTORS));
}
