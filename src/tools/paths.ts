/**
 * Which calls of a turn touch the same files. Two parallel-safe calls on
 * overlapping paths (`src` and `src/a.ts`) must still run in order: a read
 * racing a write sees either version.
 * @module
 */
import type { Tool } from './types.js';

/** Argument keys read as paths when a tool declares no `pathArgs`. */
export const DEFAULT_PATH_ARGS: readonly string[] = ['path', 'file', 'filePath', 'paths'];

/**
 * A path as segments: separators unified, `.` and empty segments dropped,
 * `..` applied. Absolute paths start with the segment `/`.
 */
export function pathSegments(path: string): string[] {
  const unified = path.trim().replace(/\\/g, '/');
  const segments: string[] = unified.startsWith('/') ? ['/'] : [];
  const floor = segments.length;
  for (const segment of unified.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > floor && segments[segments.length - 1] !== '..') segments.pop();
    else if (segment !== '..' || floor === 0) segments.push(segment);
  }
  return segments;
}

/**
 * True when one path is the other or lies inside it. An absolute and a
 * relative path, or a relative path leaving the working directory (`../x`),
 * are taken to overlap: without the working directory there is no telling,
 * and running in order is the safe answer.
 */
export function pathsOverlap(a: readonly string[], b: readonly string[]): boolean {
  if ((a[0] === '/') !== (b[0] === '/') || a[0] === '..' || b[0] === '..') return true;
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The paths a call's arguments name, as segments. */
export function callPaths(tool: Tool, args: unknown): string[][] {
  if (typeof args !== 'object' || args === null) return [];
  const record = args as Record<string, unknown>;
  const paths: string[][] = [];
  for (const key of tool.pathArgs ?? DEFAULT_PATH_ARGS) {
    const value = record[key];
    if (typeof value === 'string') paths.push(pathSegments(value));
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') paths.push(pathSegments(item));
    }
  }
  return paths;
}

/** True when no path of one call overlaps a path of another call. */
export function pathsDisjoint(calls: ReadonlyArray<readonly string[][]>): boolean {
  for (let i = 0; i < calls.length; i++) {
    for (let j = i + 1; j < calls.length; j++) {
      for (const a of calls[i]!) for (const b of calls[j]!) if (pathsOverlap(a, b)) return false;
    }
  }
  return true;
}
