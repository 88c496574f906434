/**
 * What kind of failure a failing tool result reports, read from its text, so
 * a model can be told how to recover from it rather than only that it failed.
 * @module
 */

/**
 * The kind of a tool failure: `skipped` (not run because of another call in
 * the same turn: its own arguments were fine), `transient` (a timeout, a rate
 * limit, the network — may work if retried), `input` (arguments rejected),
 * `permission` (refused, denied, blocked), `resource` (missing, too large, out
 * of space or quota), `fatal` (a crash retrying will not fix), or `unknown`.
 */
export type ToolErrorCategory =
  | 'skipped'
  | 'transient'
  | 'input'
  | 'permission'
  | 'resource'
  | 'fatal'
  | 'unknown';

/**
 * Tried in this order, first match wins (the seed's order, after `skipped`):
 * a timed-out call is transient even if it also says "not found", a wrong
 * argument is input even if the tool then "refused" it. A skipped call's
 * result names the other call's failure ("…had invalid JSON"), which is not
 * its own: it is `skipped` first.
 */
const PATTERNS: readonly (readonly [ToolErrorCategory, RegExp])[] = [
  ['skipped', /^\s*skipped:/],
  [
    'transient',
    /timed? ?out|timeout|temporar(il)?y|try again|retry later|rate.?limit|too many requests|overloaded|unavailable|econnreset|econnrefused|etimedout|eai_again|socket hang up|connection (reset|refused|closed|aborted|lost)|network|\b(429|502|503|504)\b/,
  ],
  [
    'input',
    /invalid(?! (api.?key|token|credential))|validation|(is|are) required|missing (required|argument|parameter|field|property)|must be|\bexpected\b|malformed|parse error|syntax error|unexpected token|bad request|wrong type|not a valid|unknown (argument|parameter|option|field)|available tools|\b(400|422)\b/,
  ],
  [
    'permission',
    /permission|forbidden|unauthori[sz]ed|not (allowed|permitted|authori[sz]ed)|access denied|\bden(y|ied)\b|refused|blocked|approval|eacces|eperm|authenticat|credential|api.?key|read-only|\b(401|403)\b/,
  ],
  [
    'resource',
    /not found|no such (file|directory)|does ?n[o']t exist|enoent|enospc|no space|disk (is )?full|quota|out of memory|too (large|big|long)|exceed|limit|payload|already exists|eexist|is a directory|not a directory|\b(404|410|413)\b/,
  ],
  [
    'fatal',
    /fatal|panic|segmentation fault|segfault|core dumped|crash|internal (server )?error|unrecoverable|corrupt|not implemented|unsupported|assertion failed|killed|\b500\b/,
  ],
];

/** Only the head of a long error is read: that is where a failure says what it is. */
const CLASSIFIED_CHARS = 1_000;

/** The category of a failing tool result, from its text (case-insensitive); `unknown` when nothing matches. */
export function classifyToolError(text: string): ToolErrorCategory {
  const head = text.slice(0, CLASSIFIED_CHARS).toLowerCase();
  for (const [category, pattern] of PATTERNS) if (pattern.test(head)) return category;
  return 'unknown';
}

/** One line per category telling a model how to recover. */
export const TOOL_RECOVERY_HINTS: Readonly<Record<ToolErrorCategory, string>> = {
  skipped:
    'The call was not run because of another call in the same turn; its own arguments were fine: retry it unchanged, together with that call corrected.',
  transient:
    'The failure looks temporary (timeout, rate limit or network): retry the call once, unchanged, before changing approach.',
  input:
    "The arguments were rejected: check them against the tool's schema (names, types, required fields) and retry with corrected values.",
  permission:
    'The call was refused (permission, approval or policy): do not repeat it; use an allowed tool or approach, or explain what is blocked.',
  resource:
    'A resource is missing or too large (not found, size, quota, space): check that it exists (list or search first) or ask for less.',
  fatal:
    'The tool failed in a way a retry will not fix: use another tool or approach, or report the failure in your answer.',
  unknown: 'Read the error message, correct the call, or try a different tool or approach.',
};
