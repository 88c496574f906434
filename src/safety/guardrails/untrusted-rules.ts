/**
 * The instruction-like phrasing that untrusted content (a fetched page, a
 * search result, a file) uses to talk to the model instead of the user: role
 * prefixes, "ignore previous instructions", directives, exfiltration requests
 * and chat-template tokens. Matched on folded text, by level.
 * @module
 */
import type { FoldedText } from './untrusted-fold.js';

/** How aggressive detection is: `low` only near-certain attacks, `high` also phrasing that is sometimes legitimate. */
export type UntrustedLevel = 'low' | 'medium' | 'high';

/** What a neutralised span was. */
export type UntrustedRule =
  | 'role_prefix'
  | 'override_instructions'
  | 'directive'
  | 'exfiltration'
  | 'chat_template_token'
  | 'html_comment'
  | 'image_exfiltration'
  | 'hidden_characters';

/** A span of the original text to replace. */
export interface RuleHit {
  rule: UntrustedRule;
  start: number;
  end: number;
  /** What the span becomes (`''` removes it). */
  replacement: string;
  /** Reported instead of the span itself, when that is invisible. */
  label?: string;
}

/** Replaces instruction-like text the model should not read as instructions. */
export const INSTRUCTION_MARKER = '[removed: instruction-like text]';

const RANK: Readonly<Record<UntrustedLevel, number>> = { low: 0, medium: 1, high: 2 };

/** Whether `level` includes rules of `min`. */
export function atLeast(level: UntrustedLevel, min: UntrustedLevel): boolean {
  return RANK[level] >= RANK[min];
}

interface TextRule {
  rule: UntrustedRule;
  level: UntrustedLevel;
  re: RegExp;
  /** How far the neutralised span reaches past the match. */
  extend: 'line' | 'sentence' | 'match';
  replacement?: string;
  accept?: (match: RegExpExecArray, level: UntrustedLevel) => boolean;
}

const r = (source: string) => new RegExp(source, 'gmu');

// Words that make "ignore … instructions" point at the model's own instructions.
const STRONG_POINTER =
  /\b(?:previous|prior|above|earlier|preceding|foregoing|your|system|original|initial|developer|operator|safety)\b/;
const WEAK_POINTER = /\b(?:all|any|every|existing|other|current)\b/;
const FILLER =
  '(?:all|any|every|each|the|of|these|those|my|your|previous|prior|above|earlier|preceding|foregoing|system|safety|original|initial|existing|other|current|developer|operator)';
const NOUN =
  '(instructions?|prompts?|directives|guidelines|guardrails|rules|directions|polic(?:y|ies)|constraints|restrictions|programming)';
const OVERRIDE = r(
  `\\b(?:ignore|disregard|forget|override|bypass)\\s+((?:${FILLER}(?:'s)?\\s+){0,5})${NOUN}\\b`,
);

const SECRET =
  '(?:secrets?|tokens?|(?:api|private|secret|access|ssh|signing|encryption)[\\s_-]*keys?|passwords?|passphrases?|credentials?|cookies?|session\\s+ids?|env(?:ironment)?\\s+(?:variables?|vars?|file)|\\.env|system\\s+prompt|(?:conversation|chat)\\s+history)';
const DESTINATION =
  '(?:to|into|at|via)\\s+(?:https?://|www\\.|[\\w.+-]+@[\\w-]+\\.|[\\w-]+(?:\\.[\\w-]+)*\\.[a-z]{2,}\\b|(?:this|that|the\\s+following|my|our)\\s+(?:url|link|address|endpoint|server|webhook|e-?mail|site|domain))';
const EXFIL_VERB =
  '(?:send|exfiltrate|leak|forward|post|upload|e-?mail|transmit|share|paste|submit|append|include|encode)';
// "Send the request with your API key in the Authorization header to https://…" is documentation, not theft.
const NOT_AUTH_HEADER = '(?:(?!header|authori[sz]ation|bearer)[^\\n]){0,40}?';

const AI = '(?:ai|llms?|language\\s+models?|ai\\s+assistants?|assistants?|ai\\s+agents?|chatbots?)';

const TEXT_RULES: readonly TextRule[] = [
  {
    rule: 'role_prefix',
    level: 'medium',
    // A role label followed by prose; `system: linux` or `assistant: Assistant = make()` are not prose.
    re: r(
      "^[ \\t>#*_-]*(?:system|developer|assistant)(?:\\s+(?:message|prompt|note|override|update))?[*_ \\t]*:[*_]*[ \\t]+(?:[\\p{L}'’]+[,;:.!]?[ \\t]+){3,}\\p{L}",
    ),
    extend: 'line',
  },
  {
    rule: 'role_prefix',
    level: 'medium',
    re: r('^[ \\t]*[[<{](?:system|developer)(?:\\s+(?:message|prompt|note))?[\\]>}]'),
    extend: 'line',
  },
  {
    rule: 'role_prefix',
    level: 'high',
    re: r('^[ \\t>#*_-]*(?:system|developer|assistant|user|instructions?|important|admin)[*_ \\t]*:'),
    extend: 'line',
  },
  {
    rule: 'override_instructions',
    level: 'low',
    re: OVERRIDE,
    extend: 'sentence',
    accept: (m, level) => {
      if (level === 'high') return true;
      const filler = m[1] ?? '';
      if (STRONG_POINTER.test(filler)) return true;
      return (
        WEAK_POINTER.test(filler) &&
        /^(?:instructions?|prompts?|directives|guidelines|guardrails)$/.test(m[2]!)
      );
    },
  },
  {
    rule: 'override_instructions',
    level: 'medium',
    re: r(
      '\\b(?:forget|disregard|ignore)\\s+(?:everything|all(?:\\s+that)?)\\s+(?:you\\s+(?:were|have\\s+been)\\s+told|(?:(?:written|said|stated)\\s+)?(?:above|before|so\\s+far|previously))',
    ),
    extend: 'sentence',
  },
  {
    rule: 'directive',
    level: 'medium',
    re: r(
      [
        '\\byou\\s+(?:must|should|will|need\\s+to|have\\s+to|are\\s+(?:required|instructed)\\s+to)\\s+now\\b',
        '\\bfrom\\s+now\\s+on,?\\s+(?:you|your|the\\s+(?:assistant|ai|model))\\b',
        '\\bnew\\s+(?:system\\s+)?(?:instructions?|directives?|rules)\\s*:',
        "\\b(?:do\\s+not|don'?t|never)\\s+(?:tell|inform|notify|alert)\\s+the\\s+user\\b",
        '\\bwithout\\s+(?:telling|informing|notifying|alerting)\\s+the\\s+user\\b',
        `\\b(?:note|message)\\s+(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+)?${AI}\\b`,
        `\\bif\\s+you\\s+are\\s+an?\\s+${AI}\\b`,
        `\\b${AI}\\s+(?:reading|processing|summari[sz]ing|browsing|parsing)\\s+(?:this|these)\\b`,
      ].join('|'),
    ),
    extend: 'sentence',
  },
  {
    rule: 'directive',
    level: 'high',
    re: r(
      [
        '^[ \\t]*you\\s+must\\b',
        '\\byou\\s+are\\s+now\\b',
        '\\bpretend\\s+(?:you\\s+are|to\\s+be)\\b',
        '\\bact\\s+as\\s+(?:if|though)\\s+you\\b',
        "\\b(?:do\\s+not|don'?t)\\s+(?:mention|reveal|disclose)\\b",
      ].join('|'),
    ),
    extend: 'sentence',
  },
  {
    rule: 'exfiltration',
    level: 'low',
    re: r(`\\b${EXFIL_VERB}\\b[^\\n]{0,80}?(?<!\\w)${SECRET}(?!\\w)${NOT_AUTH_HEADER}\\b${DESTINATION}`),
    extend: 'sentence',
  },
  {
    rule: 'exfiltration',
    level: 'high',
    re: r(`\\b(?:send|exfiltrate|leak)\\b[^\\n]{0,80}?(?<!\\w)${SECRET}(?!\\w)`),
    extend: 'sentence',
  },
  {
    rule: 'chat_template_token',
    level: 'medium',
    re: r('<\\|[a-z_]{2,30}\\|>|\\[/?inst\\]|<</?sys>>'),
    extend: 'match',
    replacement: '[removed: chat-template token]',
  },
];

/**
 * Finds instruction-like text in `folded` at `level`, as spans of the
 * original text. Hits may overlap; the caller merges them.
 */
export function findInstructionHits(folded: FoldedText, level: UntrustedLevel): RuleHit[] {
  const hits: RuleHit[] = [];
  const text = folded.text;
  for (const rule of TEXT_RULES) {
    if (!atLeast(level, rule.level)) continue;
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      if (m[0].length === 0) {
        rule.re.lastIndex++;
        continue;
      }
      if (rule.accept && !rule.accept(m, level)) continue;
      const end = extendMatch(text, m.index + m[0].length, rule.extend);
      const [start, stop] = folded.span(m.index, end);
      hits.push({ rule: rule.rule, start, end: stop, replacement: rule.replacement ?? INSTRUCTION_MARKER });
    }
  }
  return hits;
}

/** Whether `folded` holds any instruction-like text at `level` (for HTML comment bodies). */
export function hasInstructionText(folded: FoldedText, level: UntrustedLevel): boolean {
  return findInstructionHits(folded, level).length > 0;
}

const MAX_SENTENCE_TAIL = 300;
// A full stop ends a sentence only before whitespace (`evil.com` and `v1.2` go on); so
// does markup: a tag or the end of a comment is not part of the instruction.
const SENTENCE_END = /[.!?](?=\s|$)|[\r\n]|<(?=[/!a-z])|-->/g;
const LINE_END = /[\r\n]/g;

function extendMatch(text: string, end: number, extend: TextRule['extend']): number {
  if (extend === 'match') return end;
  if (extend === 'line') {
    LINE_END.lastIndex = end;
    return LINE_END.exec(text)?.index ?? text.length;
  }
  const limit = Math.min(text.length, end + MAX_SENTENCE_TAIL);
  // Search a bounded window: on text without sentence ends, each hit must not rescan the rest.
  SENTENCE_END.lastIndex = 0;
  const stop = SENTENCE_END.exec(text.slice(end, limit));
  if (!stop) return limit;
  return end + (/^[.!?]$/.test(stop[0]) ? stop.index + 1 : stop.index);
}
