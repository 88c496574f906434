/**
 * The untrusted-content scan itself: finding the spans to neutralise,
 * rewriting them, escaping the framing delimiter — over a whole text, or over
 * a long one in bounded slices that yield to the event loop between them, so
 * a 50 MB page neither stalls other work nor outruns the scan's time budget
 * (the budget's timer aborts the scan between two slices). Internal: the
 * public entry points are in `untrusted.ts`.
 * @module
 */
import { AbortError } from '../../core/errors.js';
import { foldForDetection } from './untrusted-fold.js';
import { findHiddenCharacters, findHtmlCommentHits, findImageHits } from './untrusted-markup.js';
import {
  findInstructionHits,
  type RuleHit,
  type UntrustedLevel,
  type UntrustedRule,
} from './untrusted-rules.js';

/** Options of `sanitizeUntrusted`. */
export interface SanitizeUntrustedOptions {
  /** Default `medium`. */
  level?: UntrustedLevel;
  /** Image hosts (and their subdomains) allowed to receive query data, e.g. your own CDN. */
  trustedImageHosts?: readonly string[];
}

/** One neutralised span. */
export interface UntrustedFinding {
  rule: UntrustedRule;
  /** The original text of the span (at most 200 characters), or a description when it is invisible. */
  match: string;
}

/** What `sanitizeUntrusted` returns. */
export interface SanitizeUntrustedResult {
  text: string;
  /** The text was edited (not merely: its length differs). */
  changed: boolean;
  /** In text order. */
  findings: UntrustedFinding[];
}

/** Texts longer than this are scanned in slices of about this many characters, yielding between them. */
export const UNTRUSTED_SLICE_CHARS = 256 * 1024;

/**
 * How far each slice's window reaches into the next slice: a match that
 * starts in a slice and is no longer than this (every rule's practical
 * match, a 2 KB image URL included) is found whole.
 */
const OVERLAP_CHARS = 16 * 1024;

/** What a text that had nothing but neutralised content in it becomes (never `''`). */
export const EMPTY_AFTER_SANITIZE =
  '[removed: nothing readable was left after removing hidden or instruction-like text]';

/** Every span of `text` to neutralise, unsorted; spans may overlap. */
export function findUntrustedHits(text: string, options: SanitizeUntrustedOptions): RuleHit[] {
  const level = options.level ?? 'medium';
  return [
    ...findHiddenCharacters(text),
    ...findHtmlCommentHits(text, level),
    ...findImageHits(text, level, options.trustedImageHosts),
    ...findInstructionHits(foldForDetection(text), level),
  ];
}

/**
 * `sanitizeUntrusted` in slices: the same spans are found (a line-prefix
 * span still runs to its line's end), save that an HTML comment longer than
 * a slice's window is judged by its text alone, not as a comment.
 * @throws AbortError when `signal` aborts (between two slices).
 */
export async function sanitizeInSlices(
  text: string,
  options: SanitizeUntrustedOptions,
  signal?: AbortSignal,
): Promise<SanitizeUntrustedResult> {
  const hits: RuleHit[] = [];
  await inSlices(text, signal, (window, offset, owned) => {
    const clipped = offset + window.length < text.length;
    for (const hit of findUntrustedHits(window, options)) {
      if (hit.start >= owned) continue;
      const atWindowEnd = clipped && hit.end === window.length;
      hit.start += offset;
      hit.end =
        atWindowEnd && hit.rule === 'role_prefix' ? lineEnd(text, offset + hit.end) : hit.end + offset;
      hits.push(hit);
    }
  });
  return neutralise(text, hits);
}

/** `text` with `hits` neutralised, and the findings. Sorts `hits`. */
export function neutralise(text: string, hits: RuleHit[]): SanitizeUntrustedResult {
  if (hits.length === 0) return { text, changed: false, findings: [] };
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const findings = hits.map((h) => ({ rule: h.rule, match: h.label ?? excerpt(text.slice(h.start, h.end)) }));
  let out = applyHits(text, hits);
  if (out.trim() === '' && text.trim() !== '') out = EMPTY_AFTER_SANITIZE;
  return { text: out, changed: out !== text, findings };
}

/** Replaces each span; overlapping spans merge, keeping a visible marker over a silent removal. */
function applyHits(text: string, sorted: readonly RuleHit[]): string {
  const parts: string[] = [];
  let cursor = 0;
  let current: { start: number; end: number; replacement: string } | undefined;
  for (const hit of sorted) {
    if (current && hit.start < current.end) {
      current.end = Math.max(current.end, hit.end);
      if (current.replacement === '') current.replacement = hit.replacement;
      continue;
    }
    if (current) {
      parts.push(text.slice(cursor, current.start), current.replacement);
      cursor = current.end;
    }
    current = { start: hit.start, end: hit.end, replacement: hit.replacement };
  }
  if (current) parts.push(text.slice(cursor, current.start), current.replacement);
  parts.push(text.slice(current ? current.end : cursor));
  return parts.join('');
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

// The delimiter in any spelling a model might read as one: case, spacing, fullwidth or look-alike letters.
const DELIMITER = /<\s*(\/?)\s*untrusted[\s_-]*content/g;

/**
 * Frames `text` as data from `source` for the model:
 * `<untrusted_content source="web_fetch">…</untrusted_content>`. A delimiter
 * inside the text (`</untrusted_content>`, also in fullwidth or look-alike
 * letters) has its `<` escaped as `&lt;`, so the content cannot close the
 * frame early and pose as the caller.
 */
export function wrapUntrusted(text: string, source: string): string {
  return frame(escapeDelimiters(text), source);
}

/** {@link wrapUntrusted} in slices, yielding between them. @throws AbortError when `signal` aborts. */
export async function wrapInSlices(text: string, source: string, signal?: AbortSignal): Promise<string> {
  const found = new DelimiterSpans();
  await inSlices(text, signal, (window, offset, owned) => found.find(window, offset, owned));
  return frame(applyDelimiters(text, found.spans), source);
}

/** `text` with every `<untrusted_content` / `</untrusted_content` spelling escaped. */
export function escapeDelimiters(text: string): string {
  const found = new DelimiterSpans();
  found.find(text, 0, text.length);
  return applyDelimiters(text, found.spans);
}

function frame(escaped: string, source: string): string {
  return `<untrusted_content source="${escapeAttribute(source)}">\n${escaped}\n</untrusted_content>`;
}

/** The delimiters found in a text, window by window. */
class DelimiterSpans {
  /** Three numbers per delimiter: its start and end in the text, and 1 for a closing one (else 0). */
  readonly spans: number[] = [];

  /** Adds the delimiters of `window` (at `offset` in the text) that start before `owned`. */
  find(window: string, offset: number, owned: number): void {
    const folded = foldForDetection(window);
    DELIMITER.lastIndex = 0;
    for (let m = DELIMITER.exec(folded.text); m; m = DELIMITER.exec(folded.text)) {
      const [start, end] = folded.span(m.index, m.index + m[0].length);
      if (start >= owned) break;
      this.spans.push(offset + start, offset + end, m[1] ? 1 : 0);
    }
  }
}

function applyDelimiters(text: string, spans: readonly number[]): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  for (let k = 0; k < spans.length; k += 3) {
    // Windows overlap: a match found again from inside an earlier one is skipped.
    if (spans[k]! < cursor) continue;
    parts.push(
      text.slice(cursor, spans[k]),
      spans[k + 2] ? '&lt;/untrusted_content' : '&lt;untrusted_content',
    );
    cursor = spans[k + 1]!;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Calls `visit` with each slice's window — the slice plus up to
 * {@link OVERLAP_CHARS} of what follows — its offset in `text`, and the
 * slice's length (what starts past it belongs to the next slice), yielding to
 * the event loop between slices.
 */
async function inSlices(
  text: string,
  signal: AbortSignal | undefined,
  visit: (window: string, offset: number, owned: number) => void,
): Promise<void> {
  for (let start = 0; start < text.length; ) {
    if (start > 0) {
      await yieldToEventLoop();
      if (signal?.aborted) throw new AbortError(signal.reason);
    }
    const end = sliceEnd(text, start);
    visit(text.slice(start, Math.min(text.length, end + OVERLAP_CHARS)), start, end - start);
    start = end;
  }
}

/** Where the slice from `start` ends: after a line break in its second half if there is one, so windows start lines. */
function sliceEnd(text: string, start: number): number {
  const limit = start + UNTRUSTED_SLICE_CHARS;
  if (limit >= text.length) return text.length;
  const newline = text.lastIndexOf('\n', limit - 1);
  if (newline >= start + UNTRUSTED_SLICE_CHARS / 2) return newline + 1;
  const code = text.charCodeAt(limit);
  // Never between the halves of a surrogate pair.
  return code >= 0xdc00 && code <= 0xdfff ? limit + 1 : limit;
}

const LINE_END = /[\r\n]/g;

function lineEnd(text: string, from: number): number {
  LINE_END.lastIndex = from;
  return LINE_END.exec(text)?.index ?? text.length;
}

const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;

/** Resolves after pending I/O and timers had their turn (a macrotask, not a microtask). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}
