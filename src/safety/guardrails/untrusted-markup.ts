/**
 * Channels that hide text from a human reader or carry data out: invisible
 * characters, HTML comments with instructions in them, and image links whose
 * URL would send data to another host when a chat UI renders them.
 * @module
 */
import { foldForDetection } from './untrusted-fold.js';
import { atLeast, hasInstructionText, type RuleHit, type UntrustedLevel } from './untrusted-rules.js';

// Always invisible, never needed in text a model reads: zero-width space, word
// joiners, BOM, soft hyphen, Hangul fillers, bidi embeddings and isolates.
const INVISIBLE =
  /\u034f|[\u00ad\u115f\u1160\u180e\u200b\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]+|[\u{e0000}-\u{e007f}]+|[\u200c-\u200f\u061c]+/gu;
// Joiners and direction marks are legitimate in emoji and right-to-left scripts; next to ASCII they split words.
const JOINERS = /^[\u200c-\u200f\u061c]/;
const TAGS = /^[\u{e0000}-\u{e007f}]/u;
const ASCII_ALNUM = /[A-Za-z0-9]/;
const BLACK_FLAG = '\u{1f3f4}';
const CANCEL_TAG = '\u{e007f}';

/** Invisible characters, removed. Flag emoji (🏴 plus tag letters) and joiners inside non-Latin text are kept. */
export function findHiddenCharacters(text: string): RuleHit[] {
  const hits: RuleHit[] = [];
  INVISIBLE.lastIndex = 0;
  for (let m = INVISIBLE.exec(text); m; m = INVISIBLE.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    let label: string;
    if (TAGS.test(m[0])) {
      if (isFlagSequence(text, start, m[0])) continue;
      label = `tag characters spelling "${decodeTags(m[0])}"`;
    } else {
      if (
        JOINERS.test(m[0]) &&
        !ASCII_ALNUM.test(text[start - 1] ?? '') &&
        !ASCII_ALNUM.test(text[end] ?? '')
      )
        continue;
      label = [...m[0]]
        .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
        .join(' ');
    }
    hits.push({ rule: 'hidden_characters', start, end, replacement: '', label });
  }
  return hits;
}

function isFlagSequence(text: string, start: number, tags: string): boolean {
  return text.slice(start - 2, start) === BLACK_FLAG && tags.endsWith(CANCEL_TAG) && [...tags].length <= 7;
}

// Tag characters mirror ASCII (U+E0041 is "A"): the text an "ASCII smuggling" attack hides.
function decodeTags(tags: string): string {
  let out = '';
  for (const c of tags) {
    const cp = c.codePointAt(0)! - 0xe0000;
    if (cp >= 0x20 && cp < 0x7f) out += String.fromCharCode(cp);
  }
  return out.length > 200 ? `${out.slice(0, 200)}…` : out;
}

const ADDRESSES_AI =
  /\b(?:ai|llms?|language models?|assistants?|agents?|chatbots?|chatgpt|gpt|claude|gemini|copilot)\b/;
const IMPERATIVE = /\b(?:must|should|please|instead|always|never|do not|don't|make sure|ensure|remember)\b/;
const COMMENT_MARKER = '[removed: hidden instructions in an HTML comment]';

/**
 * HTML comments with instruction-like text in them (any level); at `medium`
 * also comments that address an AI with an imperative, at `high` any comment
 * addressing an AI. The whole comment is replaced; plain comments stay.
 */
export function findHtmlCommentHits(text: string, level: UntrustedLevel): RuleHit[] {
  const hits: RuleHit[] = [];
  // indexOf, not a lazy regex: an unclosed `<!--` must not rescan the rest of the text each time.
  let from = 0;
  for (let open = text.indexOf('<!--'); open !== -1; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close === -1) break;
    from = close + 3;
    const body = foldForDetection(text.slice(open + 4, close));
    const ai = ADDRESSES_AI.test(body.text);
    if (
      hasInstructionText(body, level) ||
      (ai && atLeast(level, 'high')) ||
      (ai && atLeast(level, 'medium') && IMPERATIVE.test(body.text))
    ) {
      hits.push({ rule: 'html_comment', start: open, end: from, replacement: COMMENT_MARKER });
    }
  }
  return hits;
}

const MARKDOWN_IMAGE =
  /!\[[^\]\n]{0,300}\]\(\s*<?([^\s)>]{1,2048})>?(?:\s+(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'))?\s*\)/g;
const HTML_IMAGE = /<img\b[^>]{0,500}?\bsrc\s*=\s*["']?([^"'\s>]{1,2048})[^>]{0,500}>/gi;
const PLACEHOLDER = /[{}[\]<>]|\$\{|\$[A-Z_]{3,}\b|\.\.\.|\b(?:insert|placeholder)\b|_here\b/i;
const DATA_PARAM =
  /^(?:data|d|q|query|secret|token|key|api_?key|password|pass|pw|creds?|credentials?|session|cookie|chat|conversation|history|msg|message|content|prompt|info|payload|p|exfil|leak|summary|context|memory|email|user|text)$/i;

/**
 * Image links (markdown or `<img>`) to a host outside `trustedHosts` whose
 * URL carries data: a template placeholder for the model to fill in (every
 * level), a data-like query parameter (`medium`), any query or fragment
 * (`high`). A UI rendering the model's answer would fetch the URL, data and all.
 */
export function findImageHits(
  text: string,
  level: UntrustedLevel,
  trustedHosts: readonly string[] = [],
): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const re of [MARKDOWN_IMAGE, HTML_IMAGE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const host = exfiltrationHost(m[1]!, level, trustedHosts);
      if (host === undefined) continue;
      hits.push({
        rule: 'image_exfiltration',
        start: m.index,
        end: m.index + m[0].length,
        replacement: `[removed: image link sending data to ${host}]`,
      });
    }
  }
  return hits;
}

/** The host an image URL would leak data to, or undefined when it carries none (or is trusted, or relative). */
function exfiltrationHost(
  raw: string,
  level: UntrustedLevel,
  trustedHosts: readonly string[],
): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = url.hostname;
  if (trustedHosts.some((t) => host === t || host.endsWith(`.${t}`))) return undefined;
  const data = safeDecode(url.pathname + url.search + url.hash);
  if (PLACEHOLDER.test(data)) return host;
  if (atLeast(level, 'medium')) {
    for (const [name, value] of url.searchParams) {
      if (DATA_PARAM.test(name) && value.length >= 2 && !/^\d+$/.test(value)) return host;
    }
  }
  if (atLeast(level, 'high') && (url.search.length > 1 || url.hash.length > 1)) return host;
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
