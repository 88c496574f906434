/**
 * Boundary-aware truncation: cut text at a paragraph, sentence or word break
 * when one is close enough to the limit, and always say that text was cut.
 * @module
 */

/** Marker appended to every truncated text. */
export const TRUNCATED_MARKER = '[...truncated]';

// Room kept for the marker so the result stays within `maxChars`.
const MARKER_RESERVE = 20;
// Below this, boundaries are meaningless: cut hard.
const HARD_CUT_BELOW = 24;
const SENTENCE_ENDS = ['. ', '! ', '? ', '.\n'] as const;

/**
 * Shortens `text` to at most `maxChars` characters (seed §37).
 *
 * The cut is at the last paragraph break if it keeps more than 60 % of the
 * room, else at the last sentence end (> 50 %), else at the last space
 * (> 40 %), else a hard cut; each is marked `[...truncated]`.
 */
export function smartTruncate(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  if (text.length <= maxChars) return text;
  if (maxChars <= HARD_CUT_BELOW) return text.slice(0, maxChars);
  const room = maxChars - MARKER_RESERVE;
  const head = text.slice(0, room);

  const paragraph = head.lastIndexOf('\n\n');
  if (paragraph > room * 0.6) return `${head.slice(0, paragraph)}\n\n${TRUNCATED_MARKER}`;

  let sentence = -1;
  for (const end of SENTENCE_ENDS) sentence = Math.max(sentence, head.lastIndexOf(end));
  if (sentence > room * 0.5) return `${head.slice(0, sentence + 1)} ${TRUNCATED_MARKER}`;

  const space = head.lastIndexOf(' ');
  if (space > room * 0.4) return `${head.slice(0, space)} ${TRUNCATED_MARKER}`;

  return `${head}...[truncated]`;
}
