/**
 * Token counts of a tiktoken byte-pair encoding, built once per process from
 * the encoding's rank data. js-tiktoken's `encode` recompiles its split
 * pattern and special-token pattern, and joins every piece's bytes into a
 * map key, on each call; counting here compiles once, keys ranks by the
 * piece's bytes as a string (an ASCII piece is its own key) and remembers
 * the pieces that needed merging. Counts equal `encode(text, [], []).length`
 * of js-tiktoken: special tokens in text count as ordinary text.
 * @module
 */
import { memoized } from '../core/memo.js';

/** The rank data of an encoding, as `js-tiktoken/ranks/*` exports it. */
export interface BpeRanks {
  pat_str: string;
  bpe_ranks: string;
}

/** Counts tokens of texts in one encoding. */
export interface BpeCounter {
  count(text: string): number;
}

/** Merged pieces and short texts remembered; past this a memo starts over. */
const MEMO_LIMIT = 20_000;
/** Texts up to this many characters are remembered whole. */
const SHORT_TEXT = 256;

const utf8 = new TextEncoder();

/** Builds the counter of an encoding (about as long as js-tiktoken's `Tiktoken` constructor). */
export function bpeCounter(data: BpeRanks): BpeCounter {
  const ranks = rankMap(data.bpe_ranks);
  const pattern = new RegExp(data.pat_str, 'gu');
  const merged = memoized((bytes) => mergedParts(bytes, ranks), MEMO_LIMIT);

  const countPieces = (text: string): number => {
    let tokens = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const piece = match[0];
      if (piece === '') {
        pattern.lastIndex++;
        continue;
      }
      const bytes = byteString(piece);
      tokens += bytes.length === 1 || ranks.has(bytes) ? 1 : merged(bytes);
    }
    return tokens;
  };

  // Short texts repeat (tool names, small arguments and results): counted once.
  const countShort = memoized(countPieces, MEMO_LIMIT);
  return { count: (text) => (text.length > SHORT_TEXT ? countPieces(text) : countShort(text)) };
}

/** Ranks by byte string: each line is `<name> <first rank> <base64 token>…`, ranks counting up. */
function rankMap(lines: string): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const line of lines.split('\n')) {
    if (!line) continue;
    const fields = line.split(' ');
    const offset = Number.parseInt(fields[1]!, 10);
    for (let i = 2; i < fields.length; i++) ranks.set(atob(fields[i]!), offset + i - 2);
  }
  return ranks;
}

/** The UTF-8 bytes of `text`, one character per byte; ASCII text is returned as is. */
function byteString(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
  if (ascii) return text;
  const bytes = utf8.encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

/**
 * Parts of a piece after byte-pair merging: while some adjacent pair is a
 * token, merge the lowest-ranked pair (the first one on a tie).
 */
function mergedParts(bytes: string, ranks: ReadonlyMap<string, number>): number {
  // starts[i] is where part i begins; the last entry is the end of the piece.
  const starts: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i);
  while (starts.length > 2) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i + 2 < starts.length; i++) {
      const rank = ranks.get(bytes.slice(starts[i]!, starts[i + 2]!));
      if (rank !== undefined && rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
  }
  return starts.length - 1;
}
