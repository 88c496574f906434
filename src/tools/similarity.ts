/**
 * String similarity for tool-name repair: the ratio of Python's
 * `difflib.SequenceMatcher` (Ratcliff/Obershelp), the measure the seeds use
 * with a 0.7 cut-off, so thresholds carry over unchanged.
 * @module
 */

/**
 * `2·M / (|a| + |b|)`, where M counts the characters of the matching blocks
 * found by repeatedly taking the longest common substring and recursing on
 * both sides of it. 1 for equal strings, 0 for strings with nothing in common.
 * Quadratic in the lengths: meant for short strings such as tool names.
 */
export function similarity(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  return (2 * matchedChars(a, b)) / total;
}

/**
 * M: the matched characters, summed over the blocks. The ranges still to search
 * wait on a stack (as difflib's own queue) rather than in recursion; the sum does not
 * depend on the order they are searched in.
 */
function matchedChars(a: string, b: string): number {
  let matched = 0;
  // Flat quadruples: alo, ahi, blo, bhi.
  const pending = [0, a.length, 0, b.length];
  while (pending.length > 0) {
    const bhi = pending.pop()!;
    const blo = pending.pop()!;
    const ahi = pending.pop()!;
    const alo = pending.pop()!;
    if (alo >= ahi || blo >= bhi) continue;
    // Longest common substring; ties go to the earliest start in `a`, then in
    // `b`, as in difflib, so results match it block for block.
    let bestI = alo;
    let bestJ = blo;
    let bestSize = 0;
    const width = bhi - blo + 1;
    let previous = new Uint16Array(width);
    let current = new Uint16Array(width);
    for (let i = alo; i < ahi; i++) {
      const ch = a.charCodeAt(i);
      for (let j = blo; j < bhi; j++) {
        const k = j - blo + 1;
        if (b.charCodeAt(j) === ch) {
          const size = previous[k - 1]! + 1;
          current[k] = size;
          if (size > bestSize) {
            bestSize = size;
            bestI = i - size + 1;
            bestJ = j - size + 1;
          }
        } else {
          current[k] = 0;
        }
      }
      const swap = previous;
      previous = current;
      current = swap;
    }
    if (bestSize === 0) continue;
    matched += bestSize;
    pending.push(alo, bestI, blo, bestJ, bestI + bestSize, ahi, bestJ + bestSize, bhi);
  }
  return matched;
}
