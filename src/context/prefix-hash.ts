/**
 * A cheap, stable string hash for telling whether a prompt prefix changed
 * between calls (it is not a security hash).
 * @module
 */

/** 32-bit FNV-1a of the UTF-16 code units of `text`, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
